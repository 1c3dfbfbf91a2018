import Foundation

/// `POST /v1/accounts` and `POST /v1/sessions`: a user name and a password.
public struct PasswordRequest: Codable, Sendable, Hashable {
    /// 1 to 64 characters: letters, digits, `.`, `_`, `-`, `@`.
    public var username: String
    /// 8 to 1,024 bytes of UTF-8.
    public var password: String

    /// A request with both fields.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// `POST /v1/devices`: bind this device's key to the logged-in user (seed 002, step 2).
public struct BindRequest: Codable, Sendable, Hashable {
    /// A name for people (`Alice's desk reader`), 1 to 100 characters.
    public var deviceName: String
    /// The new key, SubjectPublicKeyInfo PEM.
    public var publicKey: String
    /// The device identity key that attested it, SubjectPublicKeyInfo PEM.
    public var identityKey: String
    /// The attestation statement's exact bytes, base64.
    public var attestationStatement: String
    /// The identity key's signature over them (DER), base64.
    public var attestationSignature: String
    /// When binding a device again (a new key after the old one was invalidated, frozen or
    /// blocked): the id the server gave it. The server then insists on the same identity key.
    public var deviceId: String?
    /// A one-time code the server's operator handed out for this account
    /// (`fpbridge-server device code`): vouches for a new device.
    public var bindingCode: String?
    /// When nothing else vouches for a new device: ask for a bound device's approval instead
    /// of being refused. The answer is then a ``PendingBinding`` (202).
    public var requestApproval: Bool?
    /// When the identity key lives in a TPM: the TPM's evidence and the secret it released from
    /// the server's credential (`POST /v1/devices/tpm-credentials`). Vouches for the device when
    /// the endorsement certificate chains to a TPM maker's CA the server trusts.
    public var tpm: TPMProof?

    /// A request with every field.
    public init(deviceName: String, publicKey: String, identityKey: String, attestationStatement: String,
                attestationSignature: String, deviceId: String? = nil, bindingCode: String? = nil, requestApproval: Bool? = nil,
                tpm: TPMProof? = nil) {
        self.tpm = tpm
        self.deviceId = deviceId
        self.bindingCode = bindingCode
        self.requestApproval = requestApproval
        self.deviceName = deviceName
        self.publicKey = publicKey
        self.identityKey = identityKey
        self.attestationStatement = attestationStatement
        self.attestationSignature = attestationSignature
    }
}

/// `POST /v1/challenges`: a fresh login challenge for a bound credential.
public struct ChallengeRequest: Codable, Sendable, Hashable {
    /// Whose credential.
    public var username: String
    /// The credential (`KeyIdentifiers.credentialId(_:)` of its key).
    public var credentialId: String

    /// A request for both.
    public init(username: String, credentialId: String) {
        self.username = username
        self.credentialId = credentialId
    }
}

/// `POST /v1/logins` and `POST /v1/payments/{id}/confirm`: the device's signature over the assertion.
public struct AssertionRequest: Codable, Sendable, Hashable {
    /// The challenge answered.
    public var challengeId: String
    /// The credential that signed.
    public var credentialId: String
    /// The key's counter for this signature.
    public var counter: UInt64
    /// The signature (DER), base64.
    public var signature: String

    /// A request with every field.
    public init(challengeId: String, credentialId: String, counter: UInt64, signature: String) {
        self.challengeId = challengeId
        self.credentialId = credentialId
        self.counter = counter
        self.signature = signature
    }
}

/// `POST /v1/payments`: a payment to confirm with a fingerprint (seed 000).
public struct PaymentRequest: Codable, Sendable, Hashable {
    /// Digits with at most two decimals (`12.50`), above zero, at most 999,999,999.99.
    public var amount: String
    /// Three capital letters (ISO 4217).
    public var currency: String
    /// Who is paid, 1 to 140 characters (a SEPA remittance line).
    public var payee: String
    /// The credential that will confirm it.
    public var credentialId: String

    /// A request with every field.
    public init(amount: String, currency: String, payee: String, credentialId: String) {
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.credentialId = credentialId
    }
}

/// `POST /v1/approvals/challenges`: a bound device asks to approve the new device that shows `pairingCode`.
public struct ApprovalChallengeRequest: Codable, Sendable, Hashable {
    /// Whose account.
    public var username: String
    /// The bound credential that will sign the approval.
    public var credentialId: String
    /// The six digits the new device shows (``PendingBinding/pairingCode``).
    public var pairingCode: String

    /// A request with every field.
    public init(username: String, credentialId: String, pairingCode: String) {
        self.username = username
        self.credentialId = credentialId
        self.pairingCode = pairingCode
    }
}
