import Crypto
import FPAccountAPI
import FPAccountLoad
import FPKeyFormats
import Foundation
import Testing
import TestSupport

/// Issue 28: the password alone binds only an account's first device. Whoever has it and
/// makes a key and an identity of their own (claiming `protection: "service"`) gets nothing
/// bound; a bound device's fingerprint approval, an operator's one-time code or an identity
/// the administrator registered vouches for a new one. Against the real server, on both stores.
@Suite struct DeviceVouchingTests {
    @Test(arguments: Storage.allCases)
    func aKeyThatVouchesForItselfIsNotBoundAndCannotLogInOrPay(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        // The attack as found: a software identity and key, claiming fpbridged and biometryCurrentSet.
        let forger = SoftwareDevice(protection: "service")
        let refused = try await harness.server.request("POST", "/v1/devices", json: forger.bindRequest(name: "alice's phone"), token: harness.session)
        #expect(refused.status == 403 && refused.errorCode == "deviceNotVouched", "\(String(decoding: refused.body, as: UTF8.self))")
        let challenge = try await harness.challenge(forger)
        #expect(challenge.status == 401 && challenge.errorCode == "invalidCredentials")
        let payment = try await harness.server.request("POST", "/v1/payments", json: PaymentRequest(
            amount: "999.00", currency: "EUR", payee: "Mallory", credentialId: forger.credentialId), token: harness.session)
        #expect(payment.status == 401 && payment.errorCode == "invalidCredentials")

        // Asking for approval leaves it waiting, not bound; its own password session sees that.
        let waiting = try await harness.server.request("POST", "/v1/devices", json: forger.bindRequest(requestApproval: true), token: harness.session)
        #expect(waiting.status == 202 && waiting.json["status"] as? String == "pending")
        let pending = try harness.decode(waiting, as: PendingBinding.self)
        #expect(AccountLimits.isPairingCode(pending.pairingCode))
        #expect(try await harness.challenge(forger).errorCode == "invalidCredentials")
        let seen = try harness.decode(try await harness.server.request("GET", "/v1/devices/pending/\(pending.pendingId)", token: harness.session),
                                      as: PendingBinding.self)
        #expect(seen.status == "pending" && seen.device == nil)
        let binds = try await harness.audit().filter { $0.event == "bind" }.map(\.outcome)
        #expect(binds == ["ok", "deviceNotVouched", "approval-requested"])
    }

    @Test(arguments: Storage.allCases)
    func aBoundDevicesFingerprintApprovalOfExactlyThatDeviceBindsIt(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let laptop = SoftwareDevice()
        let pending = try harness.decode(try await harness.server.request("POST", "/v1/devices", json: laptop.bindRequest(name: "laptop", requestApproval: true),
                                                                          token: harness.session), as: PendingBinding.self)
        // A wrong pairing code finds nothing; the right one shows the device as the prompt must.
        let wrongCode = pending.pairingCode == "000000" ? "000001" : "000000"
        let notFound = try await harness.server.request("POST", "/v1/approvals/challenges", json: ApprovalChallengeRequest(
            username: "alice", credentialId: harness.device.credentialId, pairingCode: wrongCode))
        #expect(notFound.status == 404 && notFound.errorCode == "notFound")
        let approval = try harness.decode(try await harness.server.request("POST", "/v1/approvals/challenges", json: ApprovalChallengeRequest(
            username: "alice", credentialId: harness.device.credentialId, pairingCode: pending.pairingCode)), as: ApprovalChallenge.self)
        #expect(approval.name == "laptop" && approval.deviceId == laptop.deviceId && approval.newCredentialId == laptop.credentialId)
        #expect(approval.challenge.purpose == "approve-device")

        // A signature over another name (what a prompt could have shown) does not approve.
        var renamed = approval
        renamed.name = "alice's old phone"
        let tampered = try await harness.server.request("POST", "/v1/approvals", json: harness.device.approve(renamed, origin: harness.server.origin, counter: 1))
        #expect(tampered.status == 401 && tampered.errorCode == "verificationFailed")
        // Nor does a stranger's signature, nor the new device's own.
        let own = try await harness.server.request("POST", "/v1/approvals", json: {
            var assertion = laptop.approve(approval, origin: harness.server.origin, counter: 1)
            assertion.credentialId = harness.device.credentialId
            return assertion
        }())
        #expect(own.status == 401 && own.errorCode == "verificationFailed")

        let approved = try await harness.server.request("POST", "/v1/approvals",
                                                        json: harness.device.approve(approval, origin: harness.server.origin, counter: 1))
        #expect(approved.status == 201 && approved.json["deviceId"] as? String == laptop.deviceId, "\(String(decoding: approved.body, as: UTF8.self))")
        let replay = try await harness.server.request("POST", "/v1/approvals",
                                                      json: harness.device.approve(approval, origin: harness.server.origin, counter: 2))
        #expect(replay.status == 401 && replay.errorCode == "challengeInvalid")

        let seen = try harness.decode(try await harness.server.request("GET", "/v1/devices/pending/\(pending.pendingId)", token: harness.session),
                                      as: PendingBinding.self)
        #expect(seen.status == "approved" && seen.device?.credentialId == laptop.credentialId)
        #expect(try await harness.login(counter: 1, device: laptop).status == 200)
        // Approved once: the pairing code finds nothing any more.
        let again = try await harness.server.request("POST", "/v1/approvals/challenges", json: ApprovalChallengeRequest(
            username: "alice", credentialId: harness.device.credentialId, pairingCode: pending.pairingCode))
        #expect(again.status == 404)
        let binds = try await harness.audit().filter { $0.event == "bind" }.map(\.outcome)
        #expect(binds == ["ok", "approval-requested", "ok"])
    }

    @Test(arguments: Storage.allCases)
    func anOperatorsBindingCodeVouchesForOneDeviceOfItsAccountOnce(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let code = try Self.serverCommand(["device", "code", "--database", harness.database, "--user", "alice", "--minutes", "5"])
        let forBob = try Self.serverCommand(["device", "code", "--database", harness.database, "--user", "bob"])
        let first = SoftwareDevice()
        let wrongAccount = try await harness.server.request("POST", "/v1/devices", json: first.bindRequest(bindingCode: forBob), token: harness.session)
        #expect(wrongAccount.status == 403 && wrongAccount.errorCode == "bindingCodeInvalid")
        let bound = try await harness.server.request("POST", "/v1/devices", json: first.bindRequest(bindingCode: code), token: harness.session)
        #expect(bound.status == 201, "\(String(decoding: bound.body, as: UTF8.self))")
        #expect(try await harness.login(counter: 1, device: first).status == 200)
        let second = SoftwareDevice()
        let reused = try await harness.server.request("POST", "/v1/devices", json: second.bindRequest(bindingCode: code), token: harness.session)
        #expect(reused.status == 403 && reused.errorCode == "bindingCodeInvalid")
        // The database keeps only the code's digest.
        if storage == .sqlite {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: harness.database))
                + ((try? Data(contentsOf: URL(fileURLWithPath: harness.database + "-wal"))) ?? Data())
            #expect(bytes.range(of: Data(code.utf8)) == nil)
        }
    }

    @Test(arguments: Storage.allCases)
    func withTrustedIdentitiesOnlyTheAdministratorsListDecides(storage: Storage) async throws {
        let directory = TemporaryDirectory()
        let database = try storage.newDatabase(in: directory)
        let kiosk = SoftwareDevice()
        let pem = directory.file("kiosk.pem")
        try kiosk.identity.publicKey.pemRepresentation.write(toFile: pem, atomically: true, encoding: .utf8)
        let added = try Self.serverCommand(["device", "trust", "--database", database, "--identity", pem, "--name", "Kiosk 1"])
        // The administrator trusts a machine: its identity key's id, for every local user of it.
        let identityId = KeyIdentifiers.identityId(kiosk.identity.publicKey)
        #expect(added.contains(identityId) && added.contains("every local user"))
        #expect(try Self.serverCommand(["device", "trusted", "--database", database]).contains("\(identityId)\tKiosk 1"))

        let server = try await LoginServerProcess(database: database, arguments: ["--trusted-identities-only"])
        _ = try await server.request("POST", "/v1/accounts", json: PasswordRequest(username: "alice", password: Harness.password))
        let session = try await Harness.passwordSession(server)
        // Not even the first device binds unless it is on the list.
        let stranger = try await server.request("POST", "/v1/devices", json: SoftwareDevice().bindRequest(), token: session)
        #expect(stranger.status == 403 && stranger.errorCode == "identityNotTrusted")
        #expect(try await server.request("POST", "/v1/devices", json: kiosk.bindRequest(), token: session).status == 201)
        // A registered identity vouches for itself as a second device too, without the option.
        let second = SoftwareDevice()
        let secondPem = directory.file("second.pem")
        try second.identity.publicKey.pemRepresentation.write(toFile: secondPem, atomically: true, encoding: .utf8)
        _ = try Self.serverCommand(["device", "trust", "--database", database, "--identity", secondPem, "--name", "Desk 2"])
        server.stop()
        let open = try await LoginServerProcess(database: database)
        let openSession = try await Harness.passwordSession(open)
        #expect(try await open.request("POST", "/v1/devices", json: second.bindRequest(), token: openSession).status == 201)
        #expect(try await open.request("POST", "/v1/devices", json: SoftwareDevice().bindRequest(), token: openSession).errorCode == "deviceNotVouched")
        // Removed from the list: refused again under the option.
        _ = try Self.serverCommand(["device", "distrust", "--database", database, "--identity", pem])
        open.stop()
        let strict = try await LoginServerProcess(database: database, arguments: ["--trusted-identities-only"])
        let strictSession = try await Harness.passwordSession(strict)
        let gone = try await strict.request("POST", "/v1/devices", json: kiosk.newKey().bindRequest(), token: strictSession)
        #expect(gone.status == 403 && gone.errorCode == "identityNotTrusted")
        // Garbage instead of a key is a clear error.
        let junk = directory.file("junk.pem")
        try "not a key".write(toFile: junk, atomically: true, encoding: .utf8)
        let result = Spawn.shell([LoginServerProcess.executable, "device", "trust", "--database", database, "--identity", junk, "--name", "x"])
        #expect(result.status != 0 && result.output.contains("not a P-256 public key in PEM"))
    }

    @Test(arguments: Storage.allCases)
    func theFirstDeviceCanBeMadeToNeedACodeToo(storage: Storage) async throws {
        let directory = TemporaryDirectory()
        let database = try storage.newDatabase(in: directory)
        let server = try await LoginServerProcess(database: database, arguments: ["--first-device-needs-code"])
        _ = try await server.request("POST", "/v1/accounts", json: PasswordRequest(username: "alice", password: Harness.password))
        let session = try await Harness.passwordSession(server)
        let device = SoftwareDevice()
        let refused = try await server.request("POST", "/v1/devices", json: device.bindRequest(requestApproval: true), token: session)
        #expect(refused.status == 403 && refused.errorCode == "deviceNotVouched")
        let code = try Self.serverCommand(["device", "code", "--database", database, "--user", "alice"])
        #expect(try await server.request("POST", "/v1/devices", json: device.bindRequest(bindingCode: code), token: session).status == 201)
    }

    /// Runs `fpbridge-server ARGUMENTS` to completion; its standard output, trimmed.
    static func serverCommand(_ arguments: [String]) throws -> String {
        let result = Spawn.shell([LoginServerProcess.executable] + arguments)
        try #require(result.status == 0, "fpbridge-server \(arguments.joined(separator: " ")): \(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
