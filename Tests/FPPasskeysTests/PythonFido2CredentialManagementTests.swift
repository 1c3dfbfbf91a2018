@testable import FPPasskeys
import Foundation
import Testing
import TestSupport

/// Credential management (what `fido2-token -L -r`, `-D -i` and a browser's security key
/// settings ask): python-fido2's CredentialManagement lists, deletes and renames alice's
/// discoverable passkeys, with a token got with the PIN or the finger.
@Suite(.serialized) struct PythonFido2CredentialManagementTests {
    @Test func theUsersPasskeysAreListedBySiteDeletedAndRenamedWithAPINToken() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // Three made (two sites, one with credProtect 3), then none of the management asks a finger.
        let results = try await Fido2Host.run(harness, script: String(repeating: "scan alice-1\n", count: 3),
                                              ["register-protect:3", "register-raw:other.example", "register", "credman:2468",
                                               "credman-rename:2468", "credman-delete:2468", "credman:1111"])
        try #require(results.count == 7, "\(results)")
        // register replaced register-protect's credential (the same account at the same site).
        let listed = results[3]["sites"] as? [String: [[Any]]]
        #expect(results[3]["existing"] as? Int == 2, "\(results[3])")
        #expect(results[3]["remaining"] as? Int == 62, "the key quota, 64, less two: \(results[3])")
        #expect(listed?["example.com"]?.first?.first as? String == "alice@example.com", "\(results[3])")
        #expect(listed?["example.com"]?.first?.last as? Int == 1, "credProtect of the newest: \(results[3])")
        #expect(listed?["other.example"]?.first?.first as? String == "alice@other.example", "\(results[3])")
        let renamed = results[4]["sites"] as? [String: [[Any]]]
        #expect(renamed?["example.com"]?.first?.first as? String == "renamed@example.com", "\(results[4])")
        let deleted = results[5]["sites"] as? [String: [[Any]]]
        #expect(results[5]["existing"] as? Int == 1 && deleted?["example.com"] == nil, "\(results[5])")
        #expect(results[6]["ctap"] as? Int == 0x31, "a wrong PIN: \(results[6])")
    }

    @Test func aTokenGotWithTheFingerListsToo() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let results = try await Fido2Host.run(harness, script: "scan alice-1\nscan alice-1\n", ["register", "credman-uv"])
        try #require(results.count == 2, "\(results)")
        #expect(results[1]["existing"] as? Int == 1, "\(results[1])")
    }
}
