@testable import FPAuthentication
import FPMatching
import FPStore
import FPVocabulary
import Foundation
import Testing

/// Issue 50: any enrolled person's touch or right PIN starts the timed lockouts' count again,
/// so a guesser who waited for passers-by made 20 wrong touches without a lockout. A reader's
/// failed identifications of about the last hour, which no success lowers, raise the 1:N
/// threshold past `identificationStrangerTouchesPerHour` (LockoutRules+Strangers.swift).
@Suite struct StrangerTouchesTests {
    /// bob and alice enrolled; a target of 1 in 10,000 and one touch an hour before the rise, so
    /// that two prints' threshold (42) is above the reader's 40 and moves visibly.
    func harness() async throws -> EngineHarness {
        let plain = EngineHarness()
        try await plain.enroll(id: "bob-1", user: "bob")
        try await plain.enroll(id: "alice-1", user: "alice")
        var configuration = plain.configuration
        configuration.identificationStrangerRate = 1e-4
        configuration.identificationStrangerTouchesPerHour = 1
        return plain.with(configuration)
    }

    /// One identification with `script`: who, or the error's code, and the thresholds it was decided at.
    func identify(_ harness: EngineHarness, _ script: String) async throws -> (user: String?, code: AuthErrorCode?, thresholds: [Int]) {
        let context = try await harness.context(script)
        var user: String?, code: AuthErrorCode?
        do throws(AuthError) {
            user = try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1)).user
        } catch {
            code = error.code
        }
        context.invalidate()
        var thresholds: [Int] = []
        for await event in context.events { if case .identificationScored(let confidence) = event { thresholds.append(confidence.threshold) } }
        return (user, code, thresholds)
    }

    @Test func aGuessersTouchesBetweenPassersByRaiseTheThresholdAndNoSuccessLowersIt() async throws {
        let harness = try await harness()
        #expect(try await identify(harness, "scan mallory").thresholds == [42], "2 prints, 1 in 10,000, 3 for safety: 42")
        #expect(try await identify(harness, "scan alice-1").user == "alice")
        // Three rounds of four wrong touches, each ended by alice: the timed lockout's count starts
        // again every time, and never reaches its 5th.
        for _ in 0..<3 {
            for _ in 0..<4 { #expect(try await identify(harness, "scan mallory").code == .authenticationFailed) }
            #expect(try await identify(harness, "scan alice-1").user == "alice")
        }
        #expect(harness.readerCounter().biometricFailures == 0, "alice started the lockout's count again")
        let recent = harness.readerCounter().strangerTouches
        #expect(recent > 12.9 && recent <= 13, "13 failed touches, a few seconds of decay: \(recent)")
        // 1e-4 / 3 / 2 comparisons / 13 times the hour's 1: 40 + 7.77 × log10(2.5e-5 ÷ 1.28e-6), about 50.
        let raised = try await identify(harness, "scan mallory bob-1=48")
        #expect(raised.code == .authenticationFailed && raised.thresholds.count == 1 && raised.thresholds[0] >= 50,
                "48 was near 42 (another touch); under the raised threshold it is no: \(raised)")
        // Nobody is shut out: alice's clear print still clears the higher threshold.
        let alice = try await identify(harness, "scan alice-1")
        #expect(alice.user == "alice" && alice.thresholds.first.map { $0 >= 50 } == true, "\(alice)")
    }

    @Test func theCountDecaysWithTimeAlone() async throws {
        let harness = try await harness()
        for _ in 0..<4 { _ = try await identify(harness, "scan mallory") }
        _ = try await identify(harness, "scan alice-1")
        for _ in 0..<4 { _ = try await identify(harness, "scan mallory") }
        #expect(try await identify(harness, "scan bob-1").thresholds.first.map { $0 > 42 } == true)
        // Three hours later 8 touches weigh 8/e³ = 0.4, under the hour's 1: the threshold is back.
        harness.advance(by: 3 * 3600)
        #expect(try await identify(harness, "scan bob-1").thresholds == [42])
        #expect(harness.readerCounter().strangerTouches > 0, "nothing but time lowered it")
    }

    @Test func aRightPasscodeKeepsTheCountAndAnUnusableCounterReachesNoThreshold() {
        var counter = AttemptCounter()
        counter.biometricFailures = 4
        counter.strangerTouches = 7.5
        counter.strangerTouchesAt = LockoutClock.now().moment
        let cleared = LockoutRules.cleared(counter)
        #expect(cleared.biometricFailures == 0 && cleared.strangerTouches == 7.5 && cleared.strangerTouchesAt != nil)
        let rules = LockoutRules(configuration: AuthConfiguration())
        #expect(rules.recentStrangerTouches(.damagedPlaceholder) == .infinity)
        #expect(IdentificationPolicy().threshold(comparisons: 10, recentFailedTouches: .infinity) == Int.max)
        #expect(IdentificationPolicy().threshold(comparisons: 5000, recentFailedTouches: 10) == 61, "up to the hour's 10: unchanged")
        #expect(IdentificationPolicy().threshold(comparisons: 5000, recentFailedTouches: 100) == 68)
        #expect(IdentificationPolicy().threshold(comparisons: 5000, recentFailedTouches: 1000) == 76)
    }

    @Test func theCountIsKeptInTheCounterFileAndAnOutOfRangeOneIsDamage() throws {
        var counter = AttemptCounter()
        counter.strangerTouches = 123.456
        counter.strangerTouchesAt = LockoutClock.now().moment
        let harness = EngineHarness()
        let store = CounterStore(directory: harness.state)
        let scope = CounterScope.reader(driver: "fake", deviceID: "0")
        try store.transaction { counters in counters[scope] = counter }
        let path = store.path(for: scope)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let read = try store.load(scope)
        #expect(read.strangerTouches == 123.456 && read.strangerTouchesAt?.uptime != nil, "\(text)")
        for bad in ["-1", "1e300"] {
            try Data(text.replacingOccurrences(of: "123.456", with: bad).utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: StoreError.self, "stranger \(bad) is damage") { try store.load(scope) }
        }
    }
}
