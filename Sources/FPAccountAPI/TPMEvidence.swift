/// What names the TPM a device identity key lives in, as fpbridged's attestation gives it
/// (`tpm` of `GET /v1/keys/attestation`). All base64.
public struct TPMEvidence: Codable, Sendable, Hashable {
    /// The endorsement key's certificate (DER), from the TPM maker.
    public var endorsementCertificate: String
    /// The endorsement key's public area (TPMT_PUBLIC).
    public var endorsementKey: String
    /// The identity key's public area (TPMT_PUBLIC): a restricted ECDSA P-256 key that never leaves the TPM.
    public var identityKey: String

    /// Evidence of these parts.
    public init(endorsementCertificate: String, endorsementKey: String, identityKey: String) {
        self.endorsementCertificate = endorsementCertificate
        self.endorsementKey = endorsementKey
        self.identityKey = identityKey
    }
}

/// `POST /v1/devices/tpm-credentials`: the server makes a credential (TPM2_MakeCredential) that
/// only the TPM of this endorsement key releases, and only to this identity key.
public struct TPMCredentialRequest: Codable, Sendable, Hashable {
    /// The TPM's evidence.
    public var tpm: TPMEvidence

    /// A request for this TPM.
    public init(tpm: TPMEvidence) { self.tpm = tpm }
}

/// The credential, for the device's TPM (fpbridged `POST /v1/identity/activate`). Base64.
public struct TPMCredentialChallenge: Codable, Sendable, Hashable {
    /// TPM2B_ID_OBJECT's contents.
    public var credential: String
    /// TPM2B_ENCRYPTED_SECRET's contents.
    public var encryptedSecret: String
    /// Milliseconds since 1970 after which the released secret no longer binds.
    public var expiresAt: Int64

    /// A credential of these parts.
    public init(credential: String, encryptedSecret: String, expiresAt: Int64) {
        self.credential = credential
        self.encryptedSecret = encryptedSecret
        self.expiresAt = expiresAt
    }
}

/// `tpm` of a bind request: the evidence, and the secret the TPM released from the credential.
public struct TPMProof: Codable, Sendable, Hashable {
    /// The TPM's evidence, as sent for the credential.
    public var evidence: TPMEvidence
    /// The secret the TPM released (base64).
    public var secret: String
    /// The credential's `expiresAt`.
    public var expiresAt: Int64

    /// A proof of these parts.
    public init(evidence: TPMEvidence, secret: String, expiresAt: Int64) {
        self.evidence = evidence
        self.secret = secret
        self.expiresAt = expiresAt
    }
}
