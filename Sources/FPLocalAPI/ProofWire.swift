import FPVocabulary

/// What `identify-and-prove` signs for whoever the reader identifies (the `proof` field of an
/// ``EvaluationRequest``), or the PIN pad for the user whose PIN is right (the `proof` field of
/// a ``PasscodeCheckRequest``): a login server's kiosk challenge, for that server's origin.
package struct ProofRequestWire: Codable, Sendable, Hashable {
    /// `kiosk-login` (identify-and-prove) or `kiosk-pin-login` (the PIN pad).
    package var purpose: String
    /// The server's origin (scheme, host and port) as the kiosk reached it.
    package var origin: String
    /// The server's challenge, base64url text as the server sent it.
    package var challenge: String

    package init(purpose: String, origin: String, challenge: String) {
        self.purpose = purpose
        self.origin = origin
        self.challenge = challenge
    }
}

/// The device identity's statement about a key, as the service sends it.
package struct WireAttestation: Codable, Sendable, Hashable {
    /// The statement's exact bytes (canonical JSON), base64.
    package var statementBase64: String
    /// The identity key's ECDSA P-256/SHA-256 signature over them, DER, base64.
    package var signatureBase64: String

    package init(statementBase64: String, signatureBase64: String) {
        self.statementBase64 = statementBase64
        self.signatureBase64 = signatureBase64
    }
}

/// The `proof` of an `identify-and-prove` result or of a right PIN at the PIN pad: the found
/// user's key's signature over the kiosk login payload (purpose, origin, challenge, credential
/// id), with what a server needs to check it without trusting the kiosk.
package struct WireProof: Codable, Sendable, Hashable {
    package var purpose: String
    package var origin: String
    package var challenge: String
    /// The key's credential id, inside the signed payload.
    package var credentialId: String
    /// The key's label among the user's keys.
    package var label: String
    /// The counter inside the signed message (the key's counter after this signature).
    package var counter: UInt64
    /// DER ECDSA P-256/SHA-256 signature, base64.
    package var signatureBase64: String
    /// The exact bytes signed: signature domain, counter, payload; base64.
    package var messageBase64: String
    /// The key, SubjectPublicKeyInfo PEM.
    package var publicKeyPem: String
    package var accessControl: KeyAccessControl
    package var protection: KeyProtection
    /// The device identity's statement about the key.
    package var attestation: WireAttestation
    /// The device identity key that signed the attestation, SubjectPublicKeyInfo PEM.
    package var identityKeyPem: String

    package init(purpose: String, origin: String, challenge: String, credentialId: String, label: String, counter: UInt64,
                 signatureBase64: String, messageBase64: String, publicKeyPem: String, accessControl: KeyAccessControl,
                 protection: KeyProtection, attestation: WireAttestation, identityKeyPem: String) {
        self.purpose = purpose
        self.origin = origin
        self.challenge = challenge
        self.credentialId = credentialId
        self.label = label
        self.counter = counter
        self.signatureBase64 = signatureBase64
        self.messageBase64 = messageBase64
        self.publicKeyPem = publicKeyPem
        self.accessControl = accessControl
        self.protection = protection
        self.attestation = attestation
        self.identityKeyPem = identityKeyPem
    }
}
