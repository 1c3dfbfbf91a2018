import FingerprintLogin
import Foundation
import Testing
import TestSupport

/// The library an app uses: `FingerprintLogin` with its keys in a real `fpbridged`
/// (`ServiceKeyring`) on `virtual_device`, against a real `fpbridge-server`.
@Suite struct ServiceKeyringTests {
    @Test func anAppBindsLogsInAndPaysThroughTheService() async throws {
        let enrolled = try await EnrolledService()
        let (service, reader) = (enrolled.service, enrolled.reader)
        let server = try await LoginServerProcess()

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
