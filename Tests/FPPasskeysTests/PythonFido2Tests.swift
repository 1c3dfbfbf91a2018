@testable import FPPasskeys
import Foundation
import Testing
import TestSupport

/// python-fido2 (a WebAuthn client and relying party nobody here wrote) against the
/// authenticator, over CTAPHID reports on a socket: the fast tier of issue 52's proof.
@Suite(.serialized) struct PythonFido2Tests {
    func run(_ harness: PasskeyHarness, script: String, _ steps: [String]) async throws -> [[String: Any]] {
        try await Fido2Host.run(harness, script: script, steps)
    }

    @Test func pythonFido2RegistersAndSignsInWithAFingerAndItsServerVerifiesBoth() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let results = try await run(harness, script: String(repeating: "scan alice-1\n", count: 4),
                                    ["info", "register", "login", "login-discoverable", "register-excluded"])
        try #require(results.count == 5, "\(results)")
        let info = results[0]
        #expect(info["ok"] as? Bool == true, "\(info)")
        #expect((info["options"] as? [String: Bool])?["uv"] == true, "a finger can verify alice: \(info)")
        #expect(info["algorithms"] as? [Int] == [-7])
        let register = results[1], login = results[2], discoverable = results[3], excluded = results[4]
        #expect(register["ok"] as? Bool == true, "\(register)")
        // Self attestation, checked by python-fido2's verifier: the credential's own key signed.
        #expect(register["format"] as? String == "packed")
        #expect(register["attestation"] as? String == "SELF", "\(register)")
        #expect(register["aaguid"] as? String == CTAP2Authenticator.aaguid.map { String(format: "%02x", $0) }.joined())
        // UP, UV and AT: made after a match.
        #expect(register["flags"] as? Int == 0x45)
        #expect(login["ok"] as? Bool == true && login["credential"] as? String == register["credential"] as? String, "\(login)")
        // The self attestation took counter 1 (it is a signature of the key as well).
        #expect(login["counter"] as? Int == 2 && login["flags"] as? Int == 0x05)
        // The site finds the account itself: the user's name comes back, the counter grows.
        #expect(discoverable["ok"] as? Bool == true && discoverable["user"] as? String == "alice@example.com", "\(discoverable)")
        #expect(discoverable["counter"] as? Int == 3)
        #expect(excluded["ok"] as? Bool == false && excluded["ctap"] as? Int == 0x19, "\(excluded)")
    }

    @Test func wrongFingersAtTheAuthenticatorCountOnTheCounterOfEveryDoor() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // One match to register, then five touches of someone else's finger.
        let results = try await run(harness, script: "scan alice-1\n" + String(repeating: "scan bob-1\n", count: 5),
                                    ["register", "login", "login"])
        try #require(results.count == 3, "\(results)")
        #expect(results[0]["ok"] as? Bool == true, "\(results[0])")
        // Three failed matches end one request (UV_INVALID); two more lock the finger (UV_BLOCKED).
        #expect(results[1]["ctap"] as? Int == 0x3F, "\(results[1])")
        #expect(results[2]["ctap"] as? Int == 0x3C, "\(results[2])")
        #expect(try await harness.fingerLockedElsewhere(), "sudo's finger is locked too")
    }

    @Test func aCancelledSignInIsAnsweredAtOnceAndCostsNoMatch() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // The client gives up 0.5 s into the second request, while the finger is awaited.
        let results = try await run(harness, script: "scan alice-1\nwait 3000\nscan alice-1\n",
                                    ["register", "login-cancelled", "login"])
        try #require(results.count == 3, "\(results)")
        #expect(results[1]["ctap"] as? Int == 0x2D, "KEEPALIVE_CANCEL: \(results[1])")
        #expect(results[2]["ok"] as? Bool == true, "\(results[2])")
    }

    @Test func aSelectionIsAnsweredByAMatchAndAWrongFingerCountsAsAtEveryDoor() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let results = try await run(harness, script: "scan alice-1\n" + String(repeating: "scan mallory\n", count: 3),
                                    ["selection", "selection", "retries"])
        try #require(results.count == 3, "\(results)")
        #expect(results[0]["ok"] as? Bool == true, "\(results[0])")
        #expect(results[1]["ctap"] as? Int == 0x3F, "three wrong fingers: \(results[1])")
        #expect(results[2]["uv_retries"] as? Int == 2, "\(results[2])")
    }
}
