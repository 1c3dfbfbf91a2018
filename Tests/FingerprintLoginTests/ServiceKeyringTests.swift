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

/// Issue 36 through two real fpbridged (two machines): alice's desk invites her laptop with a
/// finger, the laptop binds with that code; unbinding a device deletes a machine's local key
/// only when that key is the unbound device's credential.
@Suite struct InvitationThroughTheServiceTests {
    static let password = "correct horse battery"

    @Test func theDeskInvitesTheLaptopAndUnbindingDeletesOnlyTheUnboundDevicesKey() async throws {
        let (desk, laptop) = (try await EnrolledService(), try await EnrolledService())
        let server = try await LoginServerProcess()
        let url = URL(string: server.address)!
        let atDesk = FingerprintLogin(server: url, keyring: ServiceKeyring(socket: desk.service.socket))
        let atLaptop = FingerprintLogin(server: url, keyring: ServiceKeyring(socket: laptop.service.socket))
        try await atDesk.register(username: "alice", password: Self.password)
        guard case .bound(let deskDevice) = try await atDesk.bind(username: "alice", password: Self.password, deviceName: "desk") else {
            Issue.record("the first device waits for approval")
            return
        }
        async let invited = atDesk.invite(username: "alice")
        _ = try await VirtualReaderDriver.send(desk.reader, ["SCAN me"])
        let code = try await invited.code
        guard case .bound(let laptopDevice) = try await atLaptop.bind(username: "alice", password: Self.password, deviceName: "laptop",
                                                                      bindingCode: code, requestApproval: false) else {
            Issue.record("the invited laptop waits for approval")
            return
        }
        #expect(laptopDevice.deviceId != deskDevice.deviceId)

        let label = atDesk.keyLabel(username: "alice")
        let session = try await atDesk.passwordLogin(username: "alice", password: Self.password).token
        // The desk unbinds the laptop: the desk keeps its key.
        try await atDesk.unbind(deviceId: laptopDevice.deviceId, username: "alice", session: session)
        #expect(try await ServiceKeyring(socket: desk.service.socket).key(label: label) != nil)
        // The desk unbinds itself: its key goes.
        try await atDesk.unbind(deviceId: deskDevice.deviceId, username: "alice", session: session)
        #expect(try await ServiceKeyring(socket: desk.service.socket).key(label: label) == nil)
    }
}
