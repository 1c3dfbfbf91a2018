import FingerprintLogin
import Foundation
import Testing
import TestSupport

/// The library an app uses: `FingerprintLogin` with its keys in a real `fpbridged`
/// (`ServiceKeyring`) on `virtual_device`, against a real `fpbridge-server`.
@Suite struct ServiceKeyringTests {
    @Test func anAppBindsLogsInAndPaysThroughTheService() async throws {
        let reader = TemporaryDirectory.socketPath()
        // The reader stays open between operations: a finger played while the service closed
        // an idle reader would be dropped by virtual_device, and this test plays each finger
        // as soon as the reader listens.
        let service = try await ServiceProcess(environment: ["FP_VIRTUAL_DEVICE": reader, "FP_DRIVERS_WHITELIST": "virtual_device"],
                                               arguments: ["--reader-idle-seconds", "60"])
        let server = try await LoginServerProcess()
        // The caller's own user, prints and passcode in the service's state (set up with the CLI, as a user would).
        let cli = ["--json", "--reader", "libfprint:virtual_device"]
        let environment = service.clientEnvironment.merging(["FP_VIRTUAL_DEVICE": reader, "FP_DRIVERS_WHITELIST": "virtual_device"]) { $1 }
        #expect(try await Fpbridge.run(cli + ["passcode", "set", "--passcode-stdin"], environment: environment, input: "2468\n").status == 0)
        async let enrolled = Fpbridge.run(cli + ["enroll", "--finger", "right-index", "--passcode-stdin"], environment: environment,
                                          input: "2468\n")
        for _ in 0..<5 { _ = try await VirtualReaderDriver.send(reader, ["SCAN me"]) }
        #expect(try await enrolled.status == 0)

        let login = FingerprintLogin(server: URL(string: server.address)!, keyring: ServiceKeyring(socket: service.socket))
        try await login.register(username: "alice", password: "correct horse battery")
        let result = try await login.bind(username: "alice", password: "correct horse battery", deviceName: "app")
        guard case .bound(let device) = result else {
            Issue.record("the first device waits for approval: \(result)")
            return
        }
        #expect(device.protection == "service" && device.accessControl == "biometryCurrentSet")

        async let signed = login.login(username: "alice")
        _ = try await VirtualReaderDriver.send(reader, ["SCAN me"])
        let session = try await signed
        #expect(session.kind == "fingerprint" && session.username == "alice")

        async let paid = login.pay(username: "alice", amount: "3.20", currency: "EUR", payee: "Bakery", session: session.token)
        _ = try await VirtualReaderDriver.send(reader, ["SCAN me"])
        #expect(try await paid.status == "confirmed")

        // Another user of the same server has no key on this device: told to bind first.
        var refusal: FingerprintLoginError?
        do { _ = try await login.login(username: "bob") } catch { refusal = error }
        #expect(refusal?.needsRebinding == true, "bob: \(String(describing: refusal))")
    }
}
