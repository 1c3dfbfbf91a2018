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
        let enrolled = try await EnrolledService(arguments: ["--tpm", tpm.tcti])
        let (service, reader) = (enrolled.service, enrolled.reader)
        let trusting = try await LoginServerProcess(arguments: ["--first-device-needs-code", "--tpm-ca", tpm.caFile, "--tpm-vouches"])
        let untrusting = try await LoginServerProcess(arguments: ["--first-device-needs-code"])

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
