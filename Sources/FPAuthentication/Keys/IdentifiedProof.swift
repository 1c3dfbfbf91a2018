import Crypto
import FPKeyFormats
import FoundationEssentials

/// What a kiosk asks fpbridged to sign for the user it found: a login server's kiosk challenge,
/// with that user's login key for the server. Identify-and-prove signs it for whoever the
/// reader identified (purpose `kiosk-login`); the PIN pad for the user whose PIN it checked
/// (purpose `kiosk-pin-login`, `PinPad`).
///
/// The caller names the server (``origin``) and passes its challenge; it never names the
/// key or the bytes. The key is the found user's
/// `KeyIdentifiers.loginKeyLabel(origin:username:)` (the one `fpbridge account bind` made
/// for the account of the same name), and the signed data is the engine's own
/// `AssertionPayload.kioskLogin(origin:challenge:credentialId:)` (or `kioskPinLogin`) over that
/// key's credential id: a kiosk cannot make anyone's key sign a payment, an approval or anything
/// else, and the purpose inside the signed bytes says how the user was found, so a server never
/// takes a PIN for a finger.
public struct ProofRequest: Sendable, Hashable {
    /// What the signature is for: `AssertionPayload.Purpose.kioskLogin` (a finger) or
    /// `AssertionPayload.Purpose.kioskPinLogin` (a PIN); each is signed only by the path that checked it.
    public let purpose: AssertionPayload.Purpose
    /// The login server's origin as the kiosk reached it: scheme, host and port (`https://bank.example`).
    public let origin: String
    /// The server's challenge, base64url text exactly as the server sent it.
    public let challenge: String

    /// The most characters an origin or a challenge may have.
    public static let maximumFieldLength = 256

    /// A request for a proof, checked.
    /// - Throws: `AuthErrorCode.invalidInput` for another purpose than `kiosk-login` or
    ///   `kiosk-pin-login`, an origin that is not `http(s)://` printable ASCII, a challenge that is
    ///   not base64url, or either over ``maximumFieldLength`` characters.
    public init(purpose: AssertionPayload.Purpose, origin: String, challenge: String) throws(AuthError) {
        guard [.kioskLogin, .kioskPinLogin].contains(purpose) else {
            throw AuthError(.invalidInput, "a kiosk's proof signs only '\(AssertionPayload.Purpose.kioskLogin.rawValue)' or "
                            + "'\(AssertionPayload.Purpose.kioskPinLogin.rawValue)'; '\(purpose.rawValue)' needs the user's own request")
        }
        guard (1...Self.maximumFieldLength).contains(origin.utf8.count),
              origin.hasPrefix("https://") || origin.hasPrefix("http://"),
              origin.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw AuthError(.invalidInput, "the origin must be the server's scheme, host and port (http:// or https://, printable ASCII, "
                            + "at most \(Self.maximumFieldLength) characters)")
        }
        guard (1...Self.maximumFieldLength).contains(challenge.utf8.count), !challenge.contains("="),
              KeyIdentifiers.bytes(base64URL: challenge) != nil else {
            throw AuthError(.invalidInput, "the challenge must be the server's base64url text, at most \(Self.maximumFieldLength) characters")
        }
        self.purpose = purpose
        self.origin = origin
        self.challenge = challenge
    }

    /// The label of `user`'s key for this server.
    public func keyLabel(user: String) -> String {
        KeyIdentifiers.loginKeyLabel(origin: origin, username: user)
    }
}

/// The answer of identify-and-prove: who was at the reader, and their key's signature over
/// the kiosk login payload, with everything a server needs to check it without trusting the
/// kiosk: the credential id, the counter inside the signed message, the key and its attestation.
public struct IdentifiedProof: Sendable, Hashable {
    /// Who was found: identified, with which finger (the method is `fingerprint`), or by their
    /// PIN at the PIN pad (the method is `passcode`).
    public let success: AuthSuccess
    /// The payload whose `AssertionPayload.bytes` were signed (after the counter, see ``KeySignature``).
    public let payload: AssertionPayload
    /// The key's credential id (`KeyIdentifiers.credentialId(_:)` of its public key), as in ``payload``.
    public let credentialId: String
    /// The signature, its counter and the exact message.
    public let signature: KeySignature
    /// The key after signing: its counter is ``signature``'s, its attestation the device identity's statement.
    public let key: KeyDescription
}

extension AuthenticationContext {
    /// Identifies who is at the reader and, in the same touch, signs the kiosk login payload
    /// of `request` with that user's login key for the server (``ProofRequest``).
    ///
    /// The identification is ``identify(reason:options:)`` with every rule of it: failures
    /// counted per reader, its timed lockout, locked-out users left out of the gallery, never a
    /// success reused. The key must be the identified user's `biometryCurrentSet` key; it is
    /// then held to the rules of ``KeyVault/sign(label:data:reason:prompt:options:)`` under the
    /// state lock: invalidated when the user's enrolled prints changed since it was made, refused
    /// when its file is damaged, its counter taken and written before the signature is made.
    /// The context's own user (the kiosk's account) is not involved.
    ///
    /// - Throws: every failure of identification (`AuthErrorCode.authenticationFailed`,
    ///   `AuthErrorCode.biometryLockout`, `AuthErrorCode.biometryNotEnrolled`, `AuthErrorCode.timedOut`, …),
    ///   then `AuthErrorCode.notFound` (the identified user has no such key: the device is not bound
    ///   for them at this server), `AuthErrorCode.keyInvalidated`, `AuthErrorCode.stateDamaged`.
    public func identifyAndProve(_ request: ProofRequest, reason: String, protection: KeyProtection,
                                 options: BiometricOptions = BiometricOptions()) async throws(AuthError) -> IdentifiedProof {
        guard request.purpose == .kioskLogin else {
            throw AuthError(.invalidInput, "identify-and-prove signs only '\(AssertionPayload.Purpose.kioskLogin.rawValue)'; "
                            + "'\(request.purpose.rawValue)' is the PIN pad's")
        }
        let success = try await identify(reason: reason, options: options)
        return try signKioskProof(request, for: success, protection: protection)
    }

    /// Signs `request`'s kiosk payload with the login key of `success`'s user: only after the
    /// check that made `success` (a finger identified, or a PIN checked by `PinPad`), which is
    /// why it is not public. The purpose must be the one for that method (`kiosk-login` for a
    /// finger, `kiosk-pin-login` for a passcode): the signed bytes say how the user was found.
    func signKioskProof(_ request: ProofRequest, for success: AuthSuccess, protection: KeyProtection) throws(AuthError) -> IdentifiedProof {
        let expected: AssertionPayload.Purpose = success.method == .passcode ? .kioskPinLogin : .kioskLogin
        guard request.purpose == expected, success.method != .reused else {
            throw AuthError(.invalidInput, "a \(success.method.rawValue) success signs only '\(expected.rawValue)', not '\(request.purpose.rawValue)'")
        }
        var found = environment
        found.user = success.user
        let vault = AuthenticationContext(environment: found).keys(protection: protection)
        let label = request.keyLabel(user: success.user)
        var payload: AssertionPayload?
        var credentialId = ""
        let signed: (signature: KeySignature, record: KeyRecord)
        do {
            signed = try vault.signNext(label: label, accessControl: .biometryCurrentSet, method: success.method) { record throws(AuthError) in
                guard let key = try? P256.Signing.PublicKey(x963Representation: record.publicKey) else {
                    throw AuthError(.stateDamaged, "\(success.user)'s key '\(label)' holds no P-256 public key", cause: .damagedState)
                }
                credentialId = KeyIdentifiers.credentialId(key)
                let kiosk = expected == .kioskPinLogin
                    ? AssertionPayload.kioskPinLogin(origin: request.origin, challenge: request.challenge, credentialId: credentialId)
                    : AssertionPayload.kioskLogin(origin: request.origin, challenge: request.challenge, credentialId: credentialId)
                payload = kiosk
                return kiosk.bytes
            }
        } catch where error.code == .notFound {
            let found = success.method == .passcode ? "'s PIN is right" : " was identified"
            throw AuthError(.notFound, "\(success.user)\(found) but \(success.user) has no biometryCurrentSet login key for \(request.origin) "
                            + "(label '\(label)'): bind this device to that server for \(success.user) first")
        }
        guard let payload else { throw AuthError(.readerFailure, "the key signed no payload") }
        return IdentifiedProof(success: success, payload: payload, credentialId: credentialId, signature: signed.signature,
                               key: try KeyDescription(signed.record, path: try vault.path(label)))
    }
}
