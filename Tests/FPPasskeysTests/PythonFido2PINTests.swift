@testable import FPPasskeys
import FPAuthentication
import Foundation
import Testing
import TestSupport

/// The PIN (alice's passcode, 2468) and the PIN/UV auth tokens, judged by python-fido2's
/// ClientPin and Fido2Client under both protocols, and its server verifying what is signed.
@Suite(.serialized) struct PythonFido2PINTests {
    @Test func aPINTokenUnderEitherProtocolSignsAfterAMatchThatTheServerVerifies() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // Three matches for three requests, then bob's finger: a PIN token never spares the touch.
        let script = String(repeating: "scan alice-1\n", count: 3) + String(repeating: "scan bob-1\n", count: 3)
        let results = try await Fido2Host.run(harness, script: script,
                                              ["info", "retries", "register-pin:2468", "login-pin:2468", "login-pin-v1:2468", "login-pin:2468"])
        try #require(results.count == 6, "\(results)")
        let options = results[0]["options"] as? [String: Bool]
        #expect(options?["clientPin"] == true && options?["pinUvAuthToken"] == true, "\(results[0])")
        #expect(results[0]["pin_protocols"] as? [Int] == [2, 1])
        #expect(results[0]["min_pin_length"] as? Int == harness.configuration.minimumPasscodeLength, "the passcode's own rule")
        #expect(results[1]["pin_retries"] as? Int == 6 && results[1]["uv_retries"] as? Int == 5, "\(results[1])")
        // UP, UV and AT: the PIN verified, the finger was the touch.
        #expect(results[2]["ok"] as? Bool == true && results[2]["flags"] as? Int == 0x45, "\(results[2])")
        #expect(results[3]["ok"] as? Bool == true && results[3]["flags"] as? Int == 0x05, "\(results[3])")
        #expect(results[4]["ok"] as? Bool == true && results[4]["counter"] as? Int == 3, "protocol one: \(results[4])")
        #expect(results[5]["ctap"] as? Int == 0x3F, "bob's finger with alice's PIN: \(results[5])")
    }

    @Test func aTokenGotWithTheFingerSignsOnceWithoutASecondTouch() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // register, the token's match, then only bob's finger: the token's second use needs a match of its own.
        let script = "scan alice-1\nscan alice-1\n" + String(repeating: "scan bob-1\n", count: 3)
        let results = try await Fido2Host.run(harness, script: script, ["register", "login-uv-token:2"])
        try #require(results.count == 2, "\(results)")
        let uses = results[1]["uses"] as? [[String: Any]] ?? []
        try #require(uses.count == 2, "\(results[1])")
        #expect(uses[0]["ok"] as? Bool == true && uses[0]["flags"] as? Int == 0x05, "\(uses[0])")
        #expect(uses[1]["ctap"] as? Int == 0x3F, "the match was spent by the first use: \(uses[1])")
    }

    @Test func aTokenGotWithTheFingerForNoSiteAsksAgainNamingTheSite() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // The token's match was asked for "any site": its first use asks again, and bob's finger fails.
        let script = "scan alice-1\nscan alice-1\n" + String(repeating: "scan bob-1\n", count: 3)
        let results = try await Fido2Host.run(harness, script: script, ["register", "login-uv-token-any:1"])
        let uses = results.last?["uses"] as? [[String: Any]] ?? []
        #expect(uses.first?["ctap"] as? Int == 0x3F, "\(results)")
    }

    @Test func theRightPINLiftsTheFingersLockoutAtEveryDoorAndAWrongOneCounts() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let locked = try await Fido2Host.run(harness, script: "scan alice-1\n" + String(repeating: "scan bob-1\n", count: 5),
                                             ["register", "login", "login", "retries", "login-pin:1111", "retries"])
        try #require(locked.count == 6, "\(locked)")
        #expect(locked[2]["ctap"] as? Int == 0x3C, "five failed matches lock the finger: \(locked[2])")
        #expect(locked[3]["uv_retries"] as? Int == 0 && locked[3]["pin_retries"] as? Int == 6, "\(locked[3])")
        #expect(locked[4]["ctap"] as? Int == 0x31, "a wrong PIN: \(locked[4])")
        #expect(locked[5]["pin_retries"] as? Int == 5, "the wrong PIN counted: \(locked[5])")
        #expect(try await harness.fingerLockedElsewhere(), "sudo's finger is locked too")
        // A new power-up; the right PIN, then alice's finger as the touch.
        let unlocked = try await Fido2Host.run(harness, script: "scan alice-1\n", ["register-pin:2468", "retries"])
        try #require(unlocked.count == 2, "\(unlocked)")
        #expect(unlocked[0]["ok"] as? Bool == true, "\(unlocked[0])")
        #expect(unlocked[1]["uv_retries"] as? Int == 5 && unlocked[1]["pin_retries"] as? Int == 6, "\(unlocked[1])")
        #expect(try await !harness.fingerLockedElsewhere(), "the PIN lifted sudo's lockout too")
    }

    @Test func tokensForAnotherSiteWithAForeignMACOrUngrantedPermissionsAreRefusedWithoutATouch() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // One match, for the registration: any other request that asked for a finger would end the script.
        let results = try await Fido2Host.run(harness, script: "scan alice-1\n",
                                              ["register", "token-other-site:2468", "bad-mac", "token-permission:2468"])
        try #require(results.count == 4, "\(results)")
        #expect(results[1]["ctap"] as? Int == 0x33, "\(results[1])")
        #expect(results[2]["ctap"] as? Int == 0x33, "\(results[2])")
        #expect(results[3]["ctap"] as? Int == 0x40, "\(results[3])")
    }

    @Test func setPINGivesAUserWithoutAPasscodeOneAndNeverReplacesIt() async throws {
        let harness = PasskeyHarness()
        let all = try await Fido2Host.run(harness, script: "", ["set-pin-nul", "info", "set-pin:135790", "set-pin:999999", "retries"])
        try #require(all.count == 5, "\(all)")
        // A NUL inside the PIN: a client would hash more than the passcode set; refused, nothing set.
        #expect(all[0]["ctap"] as? Int == 0x37, "\(all[0])")
        let results = Array(all.dropFirst())
        #expect((results[0]["options"] as? [String: Bool])?["clientPin"] == false, "\(results[0])")
        #expect(results[1]["ok"] as? Bool == true && results[1]["client_pin"] as? Bool == true, "\(results[1])")
        #expect(results[2]["ctap"] as? Int == 0x33, "a PIN is never replaced by setPIN: \(results[2])")
        #expect(results[3]["pin_retries"] as? Int == 6, "\(results[3])")
        // The passcode is the PIN that was set, not the one refused.
        let passcodes = PasscodeManager(context: try await harness.context(""))
        try await passcodes.change(to: Passcode("2468"), prompt: ListedPasscodes([Passcode("135790")]))
    }

    @Test func aPasscodeFromBeforePINsServesAsThePINOnceItIsEnteredAgain() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // The record as an older fpbridge wrote it: no PIN digest.
        let path = harness.state.file("passcodes", "alice.json")
        var record = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
        try #require(record.removeValue(forKey: "pinDigest") != nil, "a new record has a PIN digest: \(record)")
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path))
        let before = try await Fido2Host.run(harness, script: "", ["login-pin:2468", "retries"])
        #expect(before.first?["ctap"] as? Int == 0x27, "\(before)")
        #expect(before.last?["pin_retries"] as? Int == 6, "no guess was counted: \(before)")
        // The passcode entered at another door (an unlock) fills the digest in.
        _ = try await harness.context("").unlockWithPasscode(reason: "test", prompt: ListedPasscodes([Passcode("2468")]))
        let after = try await Fido2Host.run(harness, script: "scan alice-1\n", ["register-pin:2468"])
        #expect(after.first?["ok"] as? Bool == true, "\(after)")
    }
}
