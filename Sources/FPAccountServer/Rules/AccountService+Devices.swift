import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation

/// What `POST /v1/devices` did: bound the device, or left it waiting for a bound device's approval.
enum BindOutcome: Sendable {
    case bound(BoundDevice)
    case pending(PendingBinding)
}

extension AccountService {
    /// `POST /v1/devices` (seed 002, step 2): a password session binds this device's key, when
    /// something the server trusts vouches for the device (``voucher(for:request:session:)``).
    func bind(_ request: BindRequest, session: SessionInfo, address: String?) async throws -> BindOutcome {
        try requirePasswordSession(session, "bind a device")
        let name = try promptText(request.deviceName, "deviceName", AccountLimits.deviceNameLength)
        guard request.publicKey.utf8.count < 1024, let key = try? P256.Signing.PublicKey(pemRepresentation: request.publicKey) else {
            throw AccountError(.invalidRequest, "'publicKey' is not a P-256 public key in PEM")
        }
        guard request.identityKey.utf8.count < 1024, let identity = try? P256.Signing.PublicKey(pemRepresentation: request.identityKey) else {
            throw AccountError(.invalidRequest, "'identityKey' is not a P-256 public key in PEM")
        }
        guard let statementBytes = Data(base64Encoded: request.attestationStatement),
              let signature = Data(base64Encoded: request.attestationSignature) else {
            throw AccountError(.invalidRequest, "'attestationStatement' and 'attestationSignature' must be base64")
        }
        if let code = request.bindingCode, !(1...100).contains(code.utf8.count) {
            throw AccountError(.invalidRequest, "'bindingCode' must be 1 to 100 characters")
        }
        // The device is known only once the attestation is read: the machine's identity key and
        // the local user the statement names. Until then refusals are audited under the machine's id.
        var deviceId = KeyIdentifiers.identityId(identity)
        let refuse = { (code: AccountErrorCode, message: String) async throws -> AccountError in
            try await store.audit(AuditRecord(event: "bind", outcome: code.rawValue, username: session.username,
                                              deviceId: deviceId, detail: name, address: address))
            return AccountError(code, message)
        }
        guard AttestationFormat.verify(statement: statementBytes, signature: signature, identityKey: identity),
              let statement = AttestationFormat.decode(statementBytes) else {
            throw try await refuse(.attestationRejected, "the attestation does not verify with the identity key")
        }
        guard AccountLimits.isLocalUser(statement.user) else {
            throw try await refuse(.attestationRejected, "the attestation names no local user the server can keep "
                                   + "(1 to 64 characters, no spaces or control characters)")
        }
        let localUser = statement.user
        deviceId = KeyIdentifiers.deviceId(identity, localUser: localUser)
        if let claimed = request.deviceId {
            // A device bound before is that device only if the same identity key speaks for the same local user.
            let claimed = try identifier(claimed, "deviceId")
            guard let known = try await store.deviceIdentity(username: session.username, deviceId: claimed) else {
                throw AccountError(.notFound, "\(session.username) has no device \(claimed)")
            }
            guard known == identity.pemRepresentation else {
                throw try await refuse(.deviceMismatch, "device \(claimed) was bound with another identity key; this key is not attested by it")
            }
            guard claimed == deviceId else {
                let why = claimed == KeyIdentifiers.identityId(identity)
                    ? "was bound before the server told a machine's local users apart, so it is not known as local user \(localUser)'s"
                    : "was bound by another local user of this machine"
                throw try await refuse(.deviceMismatch, "device \(claimed) \(why); this key belongs to local user \(localUser), "
                                       + "a device of its own: bind it without --device-id, with an approval, an invitation or a binding code")
            }
        }
        guard statement.publicKey == key.x963Representation.base64EncodedString() else {
            throw try await refuse(.attestationRejected, "the attestation is about another key")
        }
        guard configuration.acceptedAccessControls.contains(statement.accessControl) else {
            throw try await refuse(.keyNotAccepted, "a key with access control '\(statement.accessControl)' is not accepted "
                                   + "(accepted: \(configuration.acceptedAccessControls.sorted().joined(separator: ", ")))")
        }
        guard statement.protection == "service" || configuration.acceptDevelopmentKeys else {
            throw try await refuse(.keyNotAccepted, "the key lives in the user's own files (development mode), not in fpbridged")
        }
        let credentialId = KeyIdentifiers.credentialId(key)
        guard try await store.credential(credentialId) == nil else {
            throw try await refuse(.keyNotAccepted, "this key is bound already; make a new key to bind again")
        }
        let binding = DeviceBinding(username: session.username, deviceId: deviceId, name: name, identityKey: identity.pemRepresentation,
                                    localUser: localUser, credentialId: credentialId, publicKey: key.pemRepresentation,
                                    accessControl: statement.accessControl, protection: statement.protection)
        let voucher: DeviceVoucher
        do { voucher = try await self.voucher(for: binding, request: request) } catch let error as AccountError {
            throw try await refuse(error.code, error.message)
        }
        if voucher == .approvalRequested { return .pending(try await requestApproval(binding, address: address)) }
        let bound = try await store.bind(binding, onlyFirst: voucher == .firstDevice,
                                         audit: AuditRecord(event: "bind", outcome: "ok", username: session.username, deviceId: deviceId,
                                                            detail: "\(name), local user \(localUser) (\(voucher.rawValue))",
                                                            address: address))
        guard bound else {
            if voucher == .firstDevice, try await store.credential(credentialId) == nil {
                throw try await refuse(.deviceNotVouched, "another device became \(session.username)'s first device meanwhile, and the "
                                       + "password alone does not bind a second: approve this one from it, or give a binding code")
            }
            throw AccountError(.keyNotAccepted, "this key is bound already; make a new key to bind again")
        }
        return .bound(binding.justBound)
    }

    /// `GET /v1/devices`.
    func devices(session: SessionInfo) async throws -> DeviceList {
        DeviceList(devices: try await store.devices(username: session.username))
    }

    /// `POST /v1/devices/{id}/unbind`: a password session revokes a device.
    func unbind(_ deviceId: String, session: SessionInfo, address: String?) async throws {
        try requirePasswordSession(session, "unbind a device")
        let deviceId = try identifier(deviceId, "device id")
        let audit = AuditRecord(event: "unbind", outcome: "ok", username: session.username, deviceId: deviceId, detail: "", address: address)
        guard try await store.unbind(username: session.username, deviceId: deviceId, audit: audit) else {
            throw AccountError(.notFound, "\(session.username) has no device \(deviceId)")
        }
    }

    func requirePasswordSession(_ session: SessionInfo, _ what: String) throws {
        guard session.kind == "password" else {
            throw AccountError(.forbidden, "log in with the password to \(what): a fingerprint session may not")
        }
    }

    /// `text` as it may reach a prompt (NFC), or the refusal naming `field`.
    func promptText(_ text: String, _ field: String, _ length: ClosedRange<Int>) throws -> String {
        switch PromptText.checked(text, field: field, length: length) {
        case .success(let text): return text
        case .failure(let refusal): throw AccountError(.invalidRequest, refusal.description)
        }
    }
}
