/// Every refusal of `fpbridge-server`, by name; the HTTP status goes with it.
public enum AccountErrorCode: String, Codable, Sendable, Hashable, CaseIterable {
    /// Malformed JSON, a wrong type, a missing or unknown field, a value out of range (400).
    case invalidRequest
    /// The body is over the server's cap (413).
    case payloadTooLarge
    /// No such route (404).
    case notFound
    /// The user name is registered already (409).
    case usernameTaken
    /// Wrong user name or password; which of the two is never said (401).
    case invalidCredentials
    /// No session token, or an expired or unknown one (401).
    case unauthorized
    /// This needs a session of another kind (a password session to bind or unbind) (403).
    case forbidden
    /// Too many attempts for this account, device or address; `retryAfter` says when (429).
    case rateLimited
    /// The key's attestation does not verify with the identity key, or does not describe this key and user (422).
    case attestationRejected
    /// The key's access control or protection is not one the server accepts (422).
    case keyNotAccepted
    /// A device already bound under this identity key answered with another key that its identity did not attest (409).
    case deviceMismatch
    /// The account has a bound device, and nothing it trusts vouches for this new one: approve it from a bound
    /// device (`requestApproval`), or give a binding code from the operator (403).
    case deviceNotVouched
    /// The server binds only device identities its administrator registered, and this is not one (403).
    case identityNotTrusted
    /// The binding code is unknown, used, expired or for another account (403).
    case bindingCodeInvalid
    /// The TPM evidence does not hold: the endorsement certificate does not chain to a TPM maker's CA the
    /// server trusts, the identity key is not a restricted key of that TPM, or the credential's secret is wrong
    /// or expired; or the server trusts no TPM maker (403).
    case tpmAttestationRejected
    /// The challenge is unknown, used, expired or for another credential or purpose (401).
    case challengeInvalid
    /// The signature does not verify over exactly the expected assertion. It does not count against the credential
    /// (anyone can send one); the sender's address is rate-limited instead (401).
    case verificationFailed
    /// The counter went back: a cloned or replayed key; log in with the password and bind again (403).
    case credentialFrozen
    /// Blocked by an earlier version of the server (five failed verifications in a row); log in with the password and bind again (403).
    case credentialBlocked
    /// The device was unbound, or bound again with a new key (403).
    case credentialRevoked
    /// The payment is confirmed already (409).
    case paymentNotPending
    /// The server's storage failed; nothing was changed (503).
    case unavailable

    /// The HTTP status the server answers with.
    public var status: Int {
        switch self {
        case .invalidRequest: 400
        case .payloadTooLarge: 413
        case .notFound: 404
        case .usernameTaken, .deviceMismatch, .paymentNotPending: 409
        case .invalidCredentials, .unauthorized, .challengeInvalid, .verificationFailed: 401
        case .forbidden, .deviceNotVouched, .identityNotTrusted, .bindingCodeInvalid, .tpmAttestationRejected, .credentialFrozen, .credentialBlocked, .credentialRevoked: 403
        case .rateLimited: 429
        case .attestationRejected, .keyNotAccepted: 422
        case .unavailable: 503
        }
    }

    /// True when the user has to log in with the password and bind the device again.
    public var needsRebinding: Bool {
        self == .credentialFrozen || self == .credentialBlocked || self == .credentialRevoked
    }
}

/// A refusal as the server sends it and the client reads it:
/// `{"ok": false, "error": {"code", "message", "attemptsLeft"?, "retryAfter"?}}`.
public struct AccountError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, by name.
    public var code: AccountErrorCode
    /// In words, for people; never a secret, and for a failed verification never which part was wrong.
    public var message: String
    /// Kept for clients of earlier versions, which sent how many more verifications could fail before a block; now never sent.
    public var attemptsLeft: Int?
    /// After `rateLimited`: seconds to wait.
    public var retryAfter: Int?

    /// An error.
    public init(_ code: AccountErrorCode, _ message: String, attemptsLeft: Int? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.attemptsLeft = attemptsLeft
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// The body of a refusal.
public struct AccountFailureBody: Codable, Sendable {
    /// Always false.
    public var ok: Bool
    /// The refusal.
    public var error: AccountError

    /// The body for `error`.
    public init(_ error: AccountError) {
        ok = false
        self.error = error
    }
}
