import FingerprintLogin
import Foundation
import Testing
import TestSupport

/// `FingerprintLogin` with fpbridged's identity key in a TPM (a real swtpm with a CA the test
/// makes): `bind` proves the TPM to a server that trusts its maker, and that alone binds a
/// device the password would not (`--first-device-needs-code`).
@Suite(.enabled(if: SoftwareTPM.isInstalled || SharedData.isCI, "swtpm is not installed (apt-get install swtpm swtpm-tools)"))
struct ServiceKeyringTPMTests {
    @Test func anAppBindsOnItsTPMsWordAndLogsIn() async throws {
        let tpm = try await SoftwareTPM()
        let reader = TemporaryDirectory.socketPath()
        let service = try await ServiceProcess(environment: ["FP_VIRTUAL_DEVICE": reader, "FP_DRIVERS_WHITELIST": "virtual_device"],
                                               arguments: ["--reader-idle-seconds", "60", "--tpm", tpm.tcti])
        let trusting = try await LoginServerProcess(arguments: ["--first-device-needs-code", "--tpm-ca", tpm.caFile])
        let untrusting = try await LoginServerProcess(arguments: ["--first-device-needs-code"])
        let cli = ["--json", "--reader", "libfprint:virtual_device"]
        let environment = service.clientEnvironment.merging(["FP_VIRTUAL_DEVICE": reader, "FP_DRIVERS_WHITELIST": "virtual_device"]) { $1 }
        #expect(try await Fpbridge.run(cli + ["passcode", "set", "--passcode-stdin"], environment: environment, input: "2468\n").status == 0)
        async let enrolled = Fpbridge.run(cli + ["enroll", "--finger", "right-index", "--passcode-stdin"], environment: environment,
                                          input: "2468\n")
        for _ in 0..<5 { _ = try await VirtualReaderDriver.send(reader, ["SCAN me"]) }
        #expect(try await enrolled.status == 0)

        // A server that trusts no TPM maker: the password alone does not bind.
        let refusing = FingerprintLogin(server: URL(string: untrusting.address)!, keyring: ServiceKeyring(socket: service.socket))
        try await refusing.register(username: "alice", password: "correct horse battery")
        var refusal: FingerprintLoginError?
        do { _ = try await refusing.bind(username: "alice", password: "correct horse battery", deviceName: "desk", requestApproval: false) } catch {
            refusal = error
        }
        guard case .server(let error)? = refusal else {
            Issue.record("bound without a voucher: \(String(describing: refusal))")
            return
        }
        #expect(error.code == .deviceNotVouched)

        let login = FingerprintLogin(server: URL(string: trusting.address)!, keyring: ServiceKeyring(socket: service.socket))
        try await login.register(username: "alice", password: "correct horse battery")
        let result = try await login.bind(username: "alice", password: "correct horse battery", deviceName: "desk", requestApproval: false)
        guard case .bound(let device) = result else {
            Issue.record("the TPM did not vouch: \(result)")
            return
        }
        #expect(device.protection == "service")
        async let signed = login.login(username: "alice")
        _ = try await VirtualReaderDriver.send(reader, ["SCAN me"])
        #expect(try await signed.kind == "fingerprint")
    }
}
