/// `POST /v1/kiosk/challenges`: a kiosk asks for a challenge to arm its reader with. It names
/// no user: whoever touches the reader answers it (`identify-and-prove` in fpbridged).
public struct KioskChallengeRequest: Codable, Sendable, Hashable {
    /// The server's origin as the kiosk reached it; the server refuses any other.
    public var origin: String
    /// `kiosk-login` (a finger, the default when absent) or `kiosk-pin-login` (a PIN at the
    /// kiosk's PIN pad): a challenge answers only a proof of its own purpose, at its own route.
    public var purpose: String?

    /// A request for `origin`, for a finger's proof unless `purpose` says `kiosk-pin-login`.
    public init(origin: String, purpose: String? = nil) {
        self.origin = origin
        self.purpose = purpose
    }
}

/// A kiosk challenge: single use, tied to no user or credential, refused after ``expiresAt``.
public struct KioskChallenge: Codable, Sendable, Hashable {
    /// Its id, to send back with the proof.
    public var challengeId: String
    /// 32 random bytes, base64url: what goes into the signed payload (`AssertionPayload.kioskLogin`).
    public var challenge: String
    /// `kiosk-login`, or `kiosk-pin-login` when the request asked for it.
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
/// attestation of that key, as fpbridged's `identify-and-prove` gave them. The same body at
/// `POST /v1/kiosk/pin-logins`: the key's answer to a kiosk PIN challenge, as fpbridged's
/// PIN pad (`passcode-check` with a proof) gave them when the PIN was right.
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
