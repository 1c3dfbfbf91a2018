/// `POST /v1/kiosk/challenges`: a kiosk asks for a challenge to arm its reader with. It names
/// no user: whoever touches the reader answers it (`identify-and-prove` in fpbridged).
public struct KioskChallengeRequest: Codable, Sendable, Hashable {
    /// The server's origin as the kiosk reached it; the server refuses any other.
    public var origin: String

    /// A request for `origin`.
    public init(origin: String) { self.origin = origin }
}

/// A kiosk challenge: single use, tied to no user or credential, refused after ``expiresAt``.
public struct KioskChallenge: Codable, Sendable, Hashable {
    /// Its id, to send back with the proof.
    public var challengeId: String
    /// 32 random bytes, base64url: what goes into the signed payload (`AssertionPayload.kioskLogin`).
    public var challenge: String
    /// `kiosk-login`.
    public var purpose: String
    /// The origin the server expects in the payload.
    public var origin: String
    /// Milliseconds since 1970 after which it is refused.
    public var expiresAt: Int64

    /// A challenge as the server issues it.
    public init(challengeId: String, challenge: String, purpose: String, origin: String, expiresAt: Int64) {
        self.challengeId = challengeId
        self.challenge = challenge
        self.purpose = purpose
        self.origin = origin
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/kiosk/logins`: the identified user's key's answer to a kiosk challenge, with the
/// attestation of that key, as fpbridged's `identify-and-prove` gave them.
public struct KioskLoginRequest: Codable, Sendable, Hashable {
    /// The kiosk challenge answered.
    public var challengeId: String
    /// The credential that signed (named in the signed payload): the server finds the user by it.
    public var credentialId: String
    /// The key's counter inside the signed message.
    public var counter: UInt64
    /// The signature (DER), base64.
    public var signature: String
    /// The device identity's statement about the key, its exact bytes in base64.
    public var attestationStatement: String
    /// The identity key's signature over the statement (DER), base64.
    public var attestationSignature: String

    /// A request with every field.
    public init(challengeId: String, credentialId: String, counter: UInt64, signature: String,
                attestationStatement: String, attestationSignature: String) {
        self.challengeId = challengeId
        self.credentialId = credentialId
        self.counter = counter
        self.signature = signature
        self.attestationStatement = attestationStatement
        self.attestationSignature = attestationSignature
    }
}
