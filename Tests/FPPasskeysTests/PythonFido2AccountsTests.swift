@testable import FPPasskeys
import Foundation
import Testing
import TestSupport

/// Several accounts at one site (getNextAssertion): a sign-in that names no credential gets
/// every account's assertion for the platform's account chooser, under one touch, each judged
/// by python-fido2's server; what is left is the next request's only, and only for 30 s.
@Suite(.serialized) struct PythonFido2AccountsTests {
    @Test func everyAccountOfTheSiteSignsUnderOneTouchMostRecentFirst() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // Three registrations, then one touch for the sign-in: a fifth request for a finger
        // would find the script ended.
        let results = try await Fido2Host.run(harness, script: String(repeating: "scan alice-1\n", count: 4),
                                              ["register", "register-user:work", "register-user:club", "login-accounts"])
        try #require(results.count == 4, "\(results)")
        #expect(results[3]["users"] as? [String] == ["club", "work", "alice@example.com"], "\(results[3])")
        let counters = results[3]["counters"] as? [Int] ?? []
        #expect(counters.count == 3 && counters.allSatisfy { $0 == 2 }, "each credential's own counter grew once: \(results[3])")
    }

    @Test func whatIsLeftIsForTheNextRequestOnlyAndFor30Seconds() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let clock = ManualClock()
        let device = CTAP2DeviceState(clock: clock)
        let authenticator = try await harness.authenticator(String(repeating: "scan alice-1\n", count: 5), device: device)
        for name in ["one", "two"] {
            var make = CTAP2RefusalTests.makeCredential
            make[.int(3)] = .map([.text("id"): .bytes(Array(name.utf8)), .text("name"): .text(name)])
            #expect(await authenticator.answer(CTAP2RefusalTests.message(0x01, make)).status == .ok)
        }
        let get = CTAP2RefusalTests.message(0x02, [.int(1): .text("example.com"), .int(2): CTAP2RefusalTests.hash])
        let first = await authenticator.answer(get)
        #expect(first.status == .ok && Self.count(first) == 2, "\(first)")
        // Another command in between: nothing is left.
        #expect(await authenticator.answer([0x04]).status == .ok)
        #expect(await authenticator.answer([0x08]).status == .notAllowed)
        // The next one in time, then none.
        #expect(await authenticator.answer(get).status == .ok)
        #expect(await authenticator.answer([0x08]).status == .ok)
        #expect(await authenticator.answer([0x08]).status == .notAllowed)
        // Asked after 30 s: gone.
        #expect(await authenticator.answer(get).status == .ok)
        clock.advance(by: PendingAssertions.limit + .seconds(1))
        #expect(await authenticator.answer([0x08]).status == .notAllowed)
    }

    static func count(_ answer: CTAP2Answer) -> Int64? {
        answer.body?[.int(5)]?.intValue
    }
}
