import FPAccountAPI

/// A credential as stored.
struct CredentialRow: Sendable {
    let credentialId: String
    let username: String
    let deviceId: String
    let publicKey: String
    let counter: Int64
    let failures: Int64
    let status: CredentialStatus

    static let columns = "credential_id, username, device_id, public_key, counter, failures, status"

    init?(_ row: SQLRow) {
        guard let credentialId = row.text(0), let username = row.text(1), let deviceId = row.text(2),
              let publicKey = row.text(3), let counter = row.int(4), let failures = row.int(5),
              let status = row.text(6).flatMap(CredentialStatus.init(rawValue:)) else { return nil }
        self.credentialId = credentialId
        self.username = username
        self.deviceId = deviceId
        self.publicKey = publicKey
        self.counter = counter
        self.failures = failures
        self.status = status
    }
}

/// Where a credential stands.
enum CredentialStatus: String, Sendable {
    /// It logs in and pays.
    case active
    /// Its counter went back (a clone or a replay): bind again with the password.
    case frozen
    /// Blocked by an earlier version (five failed verifications in a row): bind again with the password.
    case blocked
    /// Unbound, or replaced by a newer binding of its device.
    case revoked
}

/// A payment as stored.
struct PaymentRow: Sendable {
    let paymentId: String
    let username: String
    let credentialId: String
    let amount: String
    let currency: String
    let payee: String
    let status: String

    static let columns = "payment_id, username, credential_id, amount, currency, payee, status"

    init(paymentId: String, username: String, credentialId: String, amount: String, currency: String, payee: String, status: String) {
        self.paymentId = paymentId
        self.username = username
        self.credentialId = credentialId
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.status = status
    }

    init?(_ row: SQLRow) {
        guard let paymentId = row.text(0), let username = row.text(1), let credentialId = row.text(2),
              let amount = row.text(3), let currency = row.text(4), let payee = row.text(5), let status = row.text(6)
        else { return nil }
        self.paymentId = paymentId
        self.username = username
        self.credentialId = credentialId
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.status = status
    }
}

/// An open challenge: unused and unexpired when it was read. It is consumed only after
/// the signature over it verifies, so a forged answer spends nothing.
struct OpenChallenge: Sendable {
    let challenge: String
    let paymentId: String?
    let pendingId: String?
}

/// One audit entry to write (never a secret).
struct AuditRecord: Sendable {
    let event: String
    let outcome: String
    let username: String?
    let deviceId: String?
    let detail: String
    let address: String?
}

/// A new device's binding waiting for a bound device's approval.
struct PendingRow: Sendable {
    let pendingId: String
    /// What will be bound once approved.
    let binding: DeviceBinding
    let pairingCode: String
    let status: String
    let expiresAt: Int64

    static let columns = """
        pending_id, username, device_id, name, identity_key, credential_id, public_key, access_control, protection,
        pairing_code, status, expires_at, local_user
        """

    init(pendingId: String, binding: DeviceBinding, pairingCode: String, status: String, expiresAt: Int64) {
        self.pendingId = pendingId
        self.binding = binding
        self.pairingCode = pairingCode
        self.status = status
        self.expiresAt = expiresAt
    }

    init?(_ row: SQLRow) {
        guard let pendingId = row.text(0), let username = row.text(1), let deviceId = row.text(2), let name = row.text(3),
              let identityKey = row.text(4), let credentialId = row.text(5), let publicKey = row.text(6),
              let accessControl = row.text(7), let protection = row.text(8), let pairingCode = row.text(9),
              let status = row.text(10), let expiresAt = row.int(11) else { return nil }
        self.init(pendingId: pendingId,
                  binding: DeviceBinding(username: username, deviceId: deviceId, name: name, identityKey: identityKey,
                                         localUser: row.text(12), credentialId: credentialId, publicKey: publicKey, accessControl: accessControl,
                                         protection: protection),
                  pairingCode: pairingCode, status: status, expiresAt: expiresAt)
    }

    /// Whether it can still be approved at `now`.
    func isOpen(at now: Int64) -> Bool { status == "pending" && expiresAt > now }

    /// The request as the API reports it, in `status`, with the device once bound.
    func reported(status: String, device: BoundDevice?) -> PendingBinding {
        PendingBinding(pendingId: pendingId, deviceId: binding.deviceId, name: binding.name, pairingCode: pairingCode,
                       status: status, expiresAt: expiresAt, device: device)
    }
}

/// A device binding as the store writes it, whatever vouched for it.
struct DeviceBinding: Sendable {
    let username: String
    let deviceId: String
    let name: String
    let identityKey: String
    /// The local user of the machine whose key this is (the attestation's `user`); nil for a
    /// device bound before the server kept it. With the identity key it makes the device id.
    let localUser: String?
    let credentialId: String
    let publicKey: String
    let accessControl: String
    let protection: String
}

extension DeviceBinding {
    /// The binding as the API reports it, just made.
    var justBound: BoundDevice {
        BoundDevice(deviceId: deviceId, name: name, credentialId: credentialId, status: CredentialStatus.active.rawValue,
                    accessControl: accessControl, protection: protection, boundAt: Clock.milliseconds(), lastUsedAt: nil,
                    localUser: localUser)
    }
}
