import FPAuthentication
import FPLocalAPI
import FPCore
import FPReaders
import FPStore
import Foundation
import Testing

/// Issue 27 §1: lockouts must not depend on a wall clock that an administrator, NTP or a dead
/// RTC battery moves. Each test moves the wall clock the way the counter file then sees it: the
/// wall-clock times in the file jump, the boot's own clock does not.
@Suite struct ClockTests {
    func identify(_ harness: EngineHarness, _ finger: String) async throws -> AuthErrorCode? {
        let context = try await harness.context("scan \(finger)", user: "kiosk")
        do {
            _ = try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
            return nil
        } catch {
            return error.code
        }
    }

    func unlock(_ harness: EngineHarness, user: String, _ passcodes: [String]) async throws -> AuthError? {
        let context = try await harness.context("", user: user, reader: false)
        do {
            _ = try await context.unlockWithPasscode(reason: "x", prompt: ListedPasscodes(passcodes.map { Passcode($0) }))
            return nil
        } catch {
            return error
        }
    }

    /// Rewrites one wall-clock field of a counter file, as a clock moved after it was written would see it.
    func shift(_ field: String, in path: String, to date: Date) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let pattern = try NSRegularExpression(pattern: "\"\(field)\" : \"[^\"]+\"")
        let range = NSRange(text.startIndex..., in: text)
        #expect(pattern.firstMatch(in: text, range: range) != nil, "\(field) is in \(text)")
        let shifted = pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "\"\(field)\" : \"\(formatter.string(from: date))\"")
        try Data(shifted.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Issue 25: a timed identification lockout's event says when it ends, as its error does;
    /// a user's lockout, which only the passcode ends, says nil.
    @Test func theLockedOutEventCarriesTheWait() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        for attempt in 1...4 { _ = try await identify(harness, "stranger-\(attempt)") }
        let context = try await harness.context("scan stranger-5", user: "kiosk")
        var thrown: AuthError?
        do { _ = try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1)) } catch { thrown = error }
        context.invalidate()
        var waits: [Double?] = []
        for await event in context.events { if case .lockedOut(let wait) = event { waits.append(wait) } }
        let wait = try #require(thrown?.retryAfter)
        #expect(waits == [wait] && wait > 0, "\(waits) against \(wait)")
        // On the wire and back.
        let wire = WireEvent(.lockedOut(retryAfter: wait))
        let decoded = try JSONDecoder().decode(WireEvent.self, from: JSONEncoder().encode(wire))
        #expect(decoded.event == .lockedOut(retryAfter: wait))

        try await harness.enroll(id: "bob-1", user: "bob")
        let first = try await harness.context("scan x\nscan y\nscan z", user: "bob")
        _ = try? await first.verifyFinger(reason: "x", options: BiometricOptions(maxFailedMatches: 3))
        first.invalidate()
        let user = try await harness.context("scan v\nscan w", user: "bob")
        _ = try? await user.verifyFinger(reason: "x", options: BiometricOptions(maxFailedMatches: 3))
        user.invalidate()
        var userWaits: [Double?] = []
        for await event in user.events { if case .lockedOut(let wait) = event { userWaits.append(wait) } }
        #expect(userWaits == [nil])
    }

    @Test func aUserEnrolledAfterAReaderLockoutNeverLiftsItWhateverTheClockSaid() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        for attempt in 1...5 { _ = try await identify(harness, "stranger-\(attempt)") }
        #expect(try await identify(harness, "alice-1") == .biometryLockout)
        // The clock was a day ahead when the lockout began and has since been set right.
        let path = CounterStore(directory: harness.state).path(for: .reader(driver: "fake", deviceID: "0"))
        try shift("lockoutBeganAt", in: path, to: Date().addingTimeInterval(86_400))
        // Trudy enrolls now, after the lockout, though her enrollment time is earlier than its start.
        try await harness.enroll(id: "trudy-1", user: "trudy")
        #expect(try await unlock(harness, user: "trudy", ["2468"]) == nil)
        #expect(try await identify(harness, "alice-1") == .biometryLockout, "a user enrolled afterwards lifted the lockout")
        // Alice was enrolled before it: her passcode lifts it.
        #expect(try await unlock(harness, user: "alice", ["2468"]) == nil)
        #expect(try await identify(harness, "alice-1") == nil)
    }

    /// Six wrong passcodes lock the passcode for a minute.
    func lockPasscode(_ harness: EngineHarness) async throws -> String {
        try await harness.setPasscode()
        let error = try await unlock(harness, user: "alice", ["1111", "1112", "1113", "1114", "1115", "1116"])
        #expect(error?.code == .passcodeLockout && (error?.retryAfter ?? 0) > 50, "\(String(describing: error))")
        return CounterStore(directory: harness.state).path(for: .user("alice"))
    }

    @Test func aWallClockSetForwardDoesNotEndAPasscodeLockout() async throws {
        let harness = EngineHarness()
        let path = try await lockPasscode(harness)
        try shift("passcodeLockedUntil", in: path, to: Date().addingTimeInterval(-1))
        let error = try await unlock(harness, user: "alice", ["2468"])
        #expect(error?.code == .passcodeLockout && (error?.retryAfter ?? 0) > 50, "\(String(describing: error))")
    }

    @Test func aWallClockSetBackAYearNeitherDamagesNorLengthensAPasscodeLockout() async throws {
        let harness = EngineHarness()
        let path = try await lockPasscode(harness)
        try shift("passcodeLockedUntil", in: path, to: Date().addingTimeInterval(86_400 * 367))
        let error = try await unlock(harness, user: "alice", ["2468"])
        #expect(error?.code == .passcodeLockout && (error?.retryAfter ?? .infinity) <= 60, "\(String(describing: error))")
    }

    /// The engine's clock is injectable: the boot clock moving on ends the wait, the wall clock does not.
    @Test func theWaitEndsWhenTheBootClockSaysSo() async throws {
        let harness = EngineHarness()
        _ = try await lockPasscode(harness)
        let context = try await harness.context("", reader: false)
        var environment = context.environment
        let real = LockoutClock.now()
        environment.clock = { LockoutClock(wall: real.wall.addingTimeInterval(-86_400 * 400), uptime: real.uptime + 61, bootID: real.bootID) }
        let later = AuthenticationContext(environment: environment)
        _ = try await later.unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"]))
        #expect(harness.counter() == AttemptCounter())
    }
}
