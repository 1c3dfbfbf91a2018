import Crypto
import FPAccountAPI
import FPAccountLoad
import FPKeyFormats
import Foundation
import Testing
import TestSupport

/// Issue 36, finding 1: several people share one machine and its device identity key. A
/// device is that key and one local user, for everything the server decides: binding, "the
/// same device again", approval, revocation, the kiosk's proof, the list and the audit.
/// mallory, another local user of the machine alice bound, has alice's password: against the
/// real server, on both stores.
@Suite struct SharedMachineTests {
    /// The attack as the probe made it: mallory's own key, attested by the machine's identity
    /// key for local user mallory, bound to alice's account with alice's password alone.
    @Test(arguments: Storage.allCases)
    func anotherLocalUserOfABoundMachineIsNotTheSameDevice(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let mallory = harness.device.otherUser("mallory")
        #expect(mallory.deviceId != harness.device.deviceId)
        let refused = try await harness.server.request("POST", "/v1/devices", json: mallory.bindRequest(name: "alice's desktop"),
                                                       token: harness.session)
        #expect(refused.status == 403 && refused.errorCode == "deviceNotVouched", "\(String(decoding: refused.body, as: UTF8.self))")
        // Nothing of hers logs in or pays as alice…
        #expect(try await harness.challenge(mallory).errorCode == "invalidCredentials")
        let payment = try await harness.server.request("POST", "/v1/payments", json: PaymentRequest(
            amount: "750.00", currency: "EUR", payee: "Mallory Ltd", credentialId: mallory.credentialId), token: harness.session)
        #expect(payment.status == 401 && payment.errorCode == "invalidCredentials")
        // …and alice's own credential was not revoked by the attempt.
        #expect(try await harness.login(counter: 1).status == 200)
        let devices = try harness.decode(try await harness.server.request("GET", "/v1/devices", token: harness.session), as: DeviceList.self)
        #expect(devices.devices.map(\.localUser) == ["alice"] && devices.devices.map(\.status) == ["active"])

        // Claiming alice's device id does not make her the same device either.
        let claimed = try await harness.server.request("POST", "/v1/devices", json: mallory.bindRequest(deviceId: harness.device.deviceId),
                                                       token: harness.session)
        #expect(claimed.status == 409 && claimed.errorCode == "deviceMismatch", "\(String(decoding: claimed.body, as: UTF8.self))")
        #expect(String(decoding: claimed.body, as: UTF8.self).contains("another local user"))

        // Asking for approval leaves her waiting for alice's finger, like any new device.
        let waiting = try await harness.server.request("POST", "/v1/devices", json: mallory.bindRequest(requestApproval: true),
                                                       token: harness.session)
        #expect(waiting.status == 202 && waiting.json["deviceId"] as? String == mallory.deviceId)
        #expect(try await harness.login(counter: 2).status == 200)
    }

    /// alice herself, after a new finger: the same machine and the same local user is the same
    /// device again, and her new key replaces her old one.
    @Test(arguments: Storage.allCases)
    func theSameLocalUserOfTheSameMachineIsStillTheSameDevice(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let renewed = harness.device.newKey()
        let bound = try await harness.server.request("POST", "/v1/devices", json: renewed.bindRequest(deviceId: harness.device.deviceId),
                                                     token: harness.session)
        #expect(bound.status == 201 && bound.json["deviceId"] as? String == harness.device.deviceId,
                "\(String(decoding: bound.body, as: UTF8.self))")
        #expect(try await harness.challenge().errorCode == "credentialRevoked")
        #expect(try await harness.login(counter: 1, device: renewed).status == 200)
        let audit = try harness.decode(try await harness.server.request("GET", "/v1/audit", token: harness.session), as: AuditLog.self)
        let binds = audit.entries.filter { $0.event == "bind" && $0.outcome == "ok" }.map(\.detail)
        #expect(binds.count == 2 && binds.allSatisfy { $0.contains("local user alice") })
        #expect(binds.first?.contains("the same device's identity key") == true)
    }

    /// Two people of one machine, each vouched for (the second by an operator's code), are two
    /// devices: each logs in with their own key, and one's new binding revokes nothing of the other's.
    @Test(arguments: Storage.allCases)
    func twoLocalUsersOfOneMachineAreTwoDevices(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let code = try DeviceVouchingTests.serverCommand(["device", "code", "--database", harness.database, "--user", "alice"])
        let bob = harness.device.otherUser("bob")
        let bound = try await harness.server.request("POST", "/v1/devices", json: bob.bindRequest(name: "shared PC", bindingCode: code),
                                                     token: harness.session)
        #expect(bound.status == 201 && bound.json["localUser"] as? String == "bob", "\(String(decoding: bound.body, as: UTF8.self))")
        #expect(try await harness.login(counter: 1).status == 200)
        #expect(try await harness.login(counter: 1, device: bob).status == 200)
        let devices = try harness.decode(try await harness.server.request("GET", "/v1/devices", token: harness.session), as: DeviceList.self)
        #expect(Set(devices.devices.map(\.deviceId)) == [harness.device.deviceId, bob.deviceId])
        #expect(Set(devices.devices.compactMap(\.localUser)) == ["alice", "bob"])
        #expect(devices.devices.allSatisfy { $0.status == "active" })
    }

    /// A kiosk logs in the account named as the local user it identified, with that user's key:
    /// a key of another local user, even one bound to alice's account, is not alice at a kiosk.
    @Test(arguments: Storage.allCases)
    func aKioskProofByAnotherLocalUsersKeyIsNotAlices(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let code = try DeviceVouchingTests.serverCommand(["device", "code", "--database", harness.database, "--user", "alice"])
        let mallory = harness.device.otherUser("mallory")
        let bound = try await harness.server.request("POST", "/v1/devices", json: mallory.bindRequest(bindingCode: code), token: harness.session)
        #expect(bound.status == 201)
        let challenge = try harness.decode(try await harness.server.request(
            "POST", "/v1/kiosk/challenges", json: KioskChallengeRequest(origin: harness.server.origin)), as: KioskChallenge.self)
        let proof = try await harness.server.request("POST", "/v1/kiosk/logins",
                                                     json: mallory.kioskLogin(challenge, origin: harness.server.origin, counter: 1))
        #expect(proof.status == 422 && proof.errorCode == "attestationRejected", "\(String(decoding: proof.body, as: UTF8.self))")
        // alice's own key at the same kiosk is alice.
        let own = try harness.decode(try await harness.server.request(
            "POST", "/v1/kiosk/challenges", json: KioskChallengeRequest(origin: harness.server.origin)), as: KioskChallenge.self)
        let alice = try await harness.server.request("POST", "/v1/kiosk/logins",
                                                     json: harness.device.kioskLogin(own, origin: harness.server.origin, counter: 1))
        #expect(alice.status == 200 && alice.json["username"] as? String == "alice")
    }

    /// The administrator may trust a shared machine for some of its local users only; under
    /// `--trusted-identities-only` the others bind nothing, there or at its kiosk.
    @Test(arguments: Storage.allCases)
    func anAdministratorTrustsAMachineForTheLocalUsersNamed(storage: Storage) async throws {
        let directory = TemporaryDirectory()
        let database = try storage.newDatabase(in: directory)
        let machine = SoftwareDevice(localUser: "alice")
        let pem = try Harness.identityFile(machine, in: directory)
        let added = try DeviceVouchingTests.serverCommand(["device", "trust", "--database", database, "--identity", pem, "--name", "Desk 4",
                                                           "--local-user", "alice"])
        #expect(added.contains("local users alice"))
        #expect(try DeviceVouchingTests.serverCommand(["device", "trusted", "--database", database]).hasSuffix("\talice"))
        let harness = try await Harness.start(database: database, in: directory, arguments: ["--trusted-identities-only"], device: machine)
        let mallory = machine.otherUser("mallory")
        let refused = try await harness.server.request("POST", "/v1/devices", json: mallory.bindRequest(requestApproval: true),
                                                       token: harness.session)
        #expect(refused.status == 403 && refused.errorCode == "identityNotTrusted", "\(String(decoding: refused.body, as: UTF8.self))")
        #expect(try await harness.login(counter: 1).status == 200)
        let bad = Spawn.shell([LoginServerProcess.executable, "device", "trust", "--database", database, "--identity", pem,
                               "--name", "Desk 5", "--local-user", "two words"])
        #expect(bad.status != 0 && bad.output.contains("--local-user"))
    }

    /// An attestation must name a local user the server can keep and show.
    @Test func anAttestationWithoutAUsableLocalUserIsRefused() async throws {
        let harness = try await Harness.start(.sqlite)
        for user in ["", "two words", "tab\there", "a/b", String(repeating: "x", count: 65)] {
            let device = SoftwareDevice(localUser: user)
            let answer = try await harness.server.request("POST", "/v1/devices", json: device.bindRequest(requestApproval: true),
                                                          token: harness.session)
            #expect(answer.status == 422 && answer.errorCode == "attestationRejected", "\(user): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }
}
