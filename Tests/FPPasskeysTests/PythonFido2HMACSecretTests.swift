@testable import FPPasskeys
import Foundation
import Testing
import TestSupport

/// hmac-secret (what a password manager or a disk key asks a security key for) and credProtect:
/// python-fido2's Fido2Client asks for them, its server verifies the signatures the outputs
/// come inside.
@Suite(.serialized) struct PythonFido2HMACSecretTests {
    static let salt = String(repeating: "a1", count: 32), other = String(repeating: "b2", count: 32)

    @Test func theSameSaltGivesTheSameSecretAfterEachMatchAndAnotherSaltOrCredentialAnother() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let results = try await Fido2Host.run(harness, script: String(repeating: "scan alice-1\n", count: 6),
                                              ["register-hmac", "hmac:\(Self.salt)", "hmac:\(Self.salt)", "hmac:\(Self.salt),\(Self.other)",
                                               "hmac-raw-v1:\(Self.salt)", "hmac-raw-nokey4:\(Self.salt)", "hmac-raw-proto3:\(Self.salt)",
                                               "hmac-raw-short"])
        try #require(results.count == 8, "\(results)")
        #expect(results[0]["hmac_create"] as? Bool == true, "\(results[0])")
        // UP, UV, AT and ED: the extension's output is in the signed data.
        #expect(results[0]["flags"] as? Int == 0xC5, "\(results[0])")
        let first = results[1]["output1"] as? String
        #expect(first?.count == 64 && results[1]["flags"] as? Int == 0x85, "\(results[1])")
        #expect(results[2]["output1"] as? String == first, "one salt, one secret: \(results[2])")
        #expect(results[3]["output1"] as? String == first, "\(results[3])")
        let second = results[3]["output2"] as? String
        #expect(second != nil && second != first, "another salt, another secret: \(results[3])")
        // The same secret under protocol one, named or not (CTAP 2.0's way), and refusals
        // before any touch (the script holds one scan for each sign-in that is answered).
        #expect(results[4]["output1"] as? String == first && results[5]["output1"] as? String == first, "\(results[4...5])")
        #expect(results[6]["ctap"] as? Int == 0x02 && results[7]["ctap"] as? Int == 0x03, "\(results[6...7])")
        // A new credential for the account (it replaces the old one): a secret of its own.
        let again = try await Fido2Host.run(harness, script: "scan alice-1\nscan alice-1\n", ["register-hmac", "hmac:\(Self.salt)"])
        #expect(again.last?["output1"] as? String != nil && again.last?["output1"] as? String != first, "\(again)")
    }

    @Test func refusedSaltsNeverSpendTheMatchATokenCarries() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // The registration and the token's match: the sign-in after the refused one needs no other.
        let results = try await Fido2Host.run(harness, script: "scan alice-1\nscan alice-1\n", ["register-hmac", "uv-token-bad-salt:\(Self.salt)"])
        let uses = results.last?["uses"] as? [[String: Any]] ?? []
        try #require(uses.count == 2, "\(results)")
        #expect(uses[0]["ctap"] as? Int == 0x33 && uses[1]["ok"] as? Bool == true, "\(uses)")
    }

    @Test func credProtectIsAnsweredWithTheLevelAskedAndSignInsNeedTheFingerAtEachLevel() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let results = try await Fido2Host.run(harness, script: String(repeating: "scan alice-1\n", count: 3) + String(repeating: "scan bob-1\n", count: 3),
                                              ["register-protect:3", "login", "register", "login-discoverable"])
        try #require(results.count == 4, "\(results)")
        #expect((results[0]["extensions"] as? [String: Int])?["credProtect"] == 3 && results[0]["flags"] as? Int == 0xC5, "\(results[0])")
        #expect(results[1]["ok"] as? Bool == true, "\(results[1])")
        // Not asked, not answered: no extension output.
        #expect(results[2]["extensions"] is NSNull && results[2]["flags"] as? Int == 0x45, "\(results[2])")
        #expect(results[3]["ctap"] as? Int == 0x3F, "bob's finger: \(results[3])")
    }

    @Test func aCredentialMadeWithoutItGivesNoSecretAndAForeignSaltMACIsRefusedWithoutATouch() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // Two matches: the registration and the sign-in; the refused salts ask for none.
        let results = try await Fido2Host.run(harness, script: "scan alice-1\nscan alice-1\n",
                                              ["register", "hmac-raw:\(Self.salt)", "hmac-bad-auth:\(Self.salt)"])
        try #require(results.count == 3, "\(results)")
        #expect(results[2]["ctap"] as? Int == 0x33, "\(results[2])")
        #expect(results[1]["ok"] as? Bool == true && results[1]["extensions"] is NSNull, "\(results[1])")
        #expect(results[1]["flags"] as? Int == 0x05, "no extension output: \(results[1])")
    }
}
