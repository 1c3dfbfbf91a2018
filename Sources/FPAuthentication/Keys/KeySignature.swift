import FPKeyFormats
import FoundationEssentials

/// A signature a key made after the evaluation its access control demands.
///
/// The signed message is, byte for byte:
///
/// | bytes | content |
/// |---|---|
/// | 22 | `"fpbridge-signature-v1"` in ASCII followed by one zero byte (``domain``) |
/// | 8 | ``counter``, unsigned, big-endian |
/// | n | the caller's data, as given |
///
/// and ``signature`` is ECDSA P-256 with SHA-256 over that message, DER-encoded
/// (X9.62 `ECDSA-Sig-Value`). The domain prefix keeps these signatures from
/// ever passing for another protocol's; the counter goes up by one with every
/// signature the key makes and is never reused, even across a crash, so a
/// server that remembers the last one it saw notices a replayed or cloned key.
public struct KeySignature: Sendable, Hashable {
    /// The message prefix: `"fpbridge-signature-v1"` and a zero byte.
    public static var domain: Data { SignatureFormat.domain }

    /// The key that signed.
    public let label: String
    /// The key's user.
    public let user: String
    /// This signature's counter value (the first signature has 1).
    public let counter: UInt64
    /// The DER-encoded ECDSA signature over ``message``.
    public let signature: Data
    /// The exact bytes signed: ``domain`` ‖ counter (8 bytes, big-endian) ‖ data.
    public let message: Data
    /// How the user was authenticated for it.
    public let method: AuthMethod

    /// The message a signature with this counter over `data` signs.
    public static func message(counter: UInt64, data: Data) -> Data {
        SignatureFormat.message(counter: counter, data: data)
    }

    /// Whether `signature` (DER) is the key's signature over `data` with `counter`,
    /// the key given as SPKI PEM (``KeyDescription/publicKeyPEM``).
    public static func verify(signature: Data, counter: UInt64, data: Data, publicKeyPEM: String) -> Bool {
        SignatureFormat.verify(signature: signature, counter: counter, data: data, publicKeyPEM: publicKeyPEM)
    }
}
