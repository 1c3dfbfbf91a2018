import Foundation
import Testing
import TestSupport

/// `fpbridge key` through the real binary on the fake reader, in-process (development mode)
/// and through a real `fpbridged`, which holds the keys.
@Suite struct KeyCommandTests {
    let directory = TemporaryDirectory()
    let service = ServiceBox()

    /// The service of a case that runs through one.
    final class ServiceBox: @unchecked Sendable {
        var process: ServiceProcess?
    }

    func fake(_ script: String) throws -> String {
        let path = directory.file("script-\(UUID().uuidString.prefix(6)).txt")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return "fake:" + path
    }

    func run(_ arguments: [String], reader: String = "fake", input: String = "") async throws -> CommandResult {
        try await Fpbridge.run(["--json", "--reader", reader, "--state-dir", directory.file("state"), "--user", "alice"] + arguments,
                               environment: service.process?.clientEnvironment ?? [:], input: input)
    }

    func keys() async throws -> [[String: Any]] {
        try #require(try await run(["key", "list"]).json["keys"] as? [[String: Any]])
    }

    @Test(arguments: [false, true])
    func createSignListDeleteOnTheFakeReader(throughService: Bool) async throws {
        if throughService { service.process = try await ServiceProcess() }
        #expect(try await run(["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        let enrolled = try await run(["enroll", "--finger", "right-index", "--passcode-stdin"],
                                     reader: fake(String(repeating: "scan a\n", count: 5)), input: "2468\n")
        #expect(enrolled.status == 0)

        let created = try await run(["key", "create", "--label", "login", "--access-control", "biometry-current-set"])
        #expect(created.status == 0 && created.ok)
        if throughService {
            #expect(created.json["protection"] as? String == "service" && created.json["warning"] == nil)
        } else {
            #expect(created.json["protection"] as? String == "development")
            #expect((created.json["warning"] as? String)?.hasPrefix("unprotected: the key lives in your own state directory") == true)
        }
        let key = try #require(created.json["key"] as? [String: Any])
        #expect(key["accessControl"] as? String == "biometryCurrentSet" && key["counter"] as? Int == 0)
        #expect((key["publicKeyPem"] as? String)?.hasPrefix("-----BEGIN PUBLIC KEY-----") == true)
        let twice = try await run(["key", "create", "--label", "login", "--access-control", "biometry-any"])
        #expect(twice.status == 2 && twice.errorCode == -2008)
        // The hint is chosen by the error's cause, which crosses the socket with it (issue 41 §3:
        // it was chosen by the message's words).
        let refusal = try #require(twice.json["error"] as? [String: Any])
        #expect(refusal["cause"] as? String == "key-label-taken")
        #expect(refusal["hint"] as? String == "'fpbridge key delete --label LABEL' removes it")

        // A match signs "fpbridge-signature-v1" NUL, the counter (big-endian) and the data.
        let signed = try await run(["key", "sign", "--label", "login", "--data-base64", Data("hello".utf8).base64EncodedString()],
                                   reader: fake("scan a"))
        #expect(signed.status == 0 && signed.json["counter"] as? Int == 1 && signed.json["method"] as? String == "fingerprint")
        let message = try #require(Data(base64Encoded: signed.json["message"] as? String ?? ""))
        #expect(message == Data("fpbridge-signature-v1".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1] + Data("hello".utf8))
        #expect(Data(base64Encoded: signed.json["signature"] as? String ?? "")?.first == 0x30)

        // No match: exit 1, no signature, no counter value taken.
        let miss = try await run(["key", "sign", "--label", "login", "--data-base64", "aGk="], reader: fake("scan b\nscan c\nscan d"))
        #expect(miss.status == 1 && miss.errorCode == -1 && miss.json["signature"] == nil)
        let file = directory.file("challenge.bin")
        try Data("from a file".utf8).write(to: URL(fileURLWithPath: file))
        let fromFile = try await run(["key", "sign", "--label", "login", "--data-file", file], reader: fake("scan a"))
        #expect(fromFile.status == 0 && fromFile.json["counter"] as? Int == 2)
        #expect(try await keys().first?["counter"] as? Int == 2)

        let attested = try await run(["key", "attest", "--label", "login"])
        #expect(attested.status == 0 && (attested.json["statement"] as? String)?.contains("\"label\":\"login\"") == true)
        #expect(attested.json["identityKeyPem"] as? String == (try await run(["key", "identity"])).json["identityKeyPem"] as? String)

        // Another finger: the key is invalidated for good (exit 3, -2012).
        #expect(try await run(["enroll", "--finger", "left-index", "--passcode-stdin"],
                              reader: fake(String(repeating: "scan b\n", count: 5)), input: "2468\n").status == 0)
        let invalidated = try await run(["key", "sign", "--label", "login", "--data-base64", "aGk="], reader: fake("scan a"))
        #expect(invalidated.status == 3 && invalidated.errorCode == -2012)
        #expect(try await keys().first?["invalidated"] as? Bool == true)

        #expect(try await run(["key", "delete", "--label", "login"]).status == 0)
        #expect(try await keys().isEmpty)
        let gone = try await run(["key", "sign", "--label", "login", "--data-base64", "aGk="], reader: fake("scan a"))
        #expect(gone.status == 2 && gone.errorCode == -2009)
        let badLabel = try await run(["key", "create", "--label", "../x", "--access-control", "device-passcode"])
        #expect(badLabel.status == 2 && badLabel.errorCode == -2007)
    }
}
