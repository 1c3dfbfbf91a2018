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
    /// Five verifications failed in a row: bind again with the password.
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

/// A challenge just consumed.
struct ConsumedChallenge: Sendable {
    let challenge: String
    let paymentId: String?
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
