import Foundation
import Testing
import TestSupport

/// `fpbridge account bind` through an fpbridged whose identity key is in a TPM (a real swtpm
/// with a CA the test makes): the CLI proves the TPM, and a server that trusts its maker binds
/// on that alone (`--first-device-needs-code`: the password would not).
@Suite(.enabled(if: SoftwareTPM.isInstalled || SharedData.isCI, "swtpm is not installed (apt-get install swtpm swtpm-tools)"))
struct AccountTPMTests {
    @Test func accountBindProvesTheTPMAndTheKeyLogsIn() async throws {
        let tpm = try await SoftwareTPM()
        let bench = try await Bench(.fakeThroughService, serviceArguments: ["--tpm", tpm.tcti])
        let server = try await LoginServerProcess(arguments: ["--first-device-needs-code", "--tpm-ca", tpm.caFile, "--tpm-vouches"])
        let account = ["--server", server.address, "--account", "alice"]
        try await bench.enroll("right-index", id: "alice-1")
        #expect(try await bench.run(["account", "register", "--password-stdin"] + account, input: AccountCommandTests.password).ok)
        let bound = try await bench.run(["account", "bind", "--password-stdin", "--device-name", "desk", "--no-wait"] + account,
                                        input: AccountCommandTests.password)
        #expect(bound.ok, "bind: \(bound.stdout)\(bound.stderr)")
        let device = try #require(bound.json["device"] as? [String: Any], "\(bound.stdout)")
        #expect(device["protection"] as? String == "service")
        let login = try await bench.run(["account", "login"] + account, touches: [.finger("alice-1")])
        #expect(login.ok && login.json["kind"] as? String == "fingerprint", "login: \(login.stdout)\(login.stderr)")
    }

    /// A server that trusts no TPM maker refuses the binding (the first device needs a code),
    /// and says why the device's TPM did not vouch: before, the client dropped that reason.
    @Test func aRefusedBindingSaysWhyTheTPMDidNotVouch() async throws {
        let tpm = try await SoftwareTPM()
        let bench = try await Bench(.fakeThroughService, serviceArguments: ["--tpm", tpm.tcti])
        let server = try await LoginServerProcess(arguments: ["--first-device-needs-code"])
        let account = ["--server", server.address, "--account", "alice"]
        try await bench.enroll("right-index", id: "alice-1")
        #expect(try await bench.run(["account", "register", "--password-stdin"] + account, input: AccountCommandTests.password).ok)
        let bound = try await bench.run(["account", "bind", "--password-stdin", "--device-name", "desk", "--no-wait"] + account,
                                        input: AccountCommandTests.password)
        #expect(!bound.ok, "\(bound.stdout)")
        let message = (bound.json["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("TPM did not vouch") && message.contains("trusts no TPM maker"), "\(bound.stdout)\(bound.stderr)")
    }
}
