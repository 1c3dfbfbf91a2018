import Crypto
import FoundationEssentials

/// What a key of fpbridge signs, and how a server checks it, without libfprint:
/// `"fpbridge-signature-v1"`, a zero byte, the key's counter (8 bytes,
/// big-endian), then the caller's data. ECDSA P-256 with SHA-256, DER-encoded.
public enum SignatureFormat {
    /// The message prefix: `"fpbridge-signature-v1"` and a zero byte.
    public static let domain = Data("fpbridge-signature-v1\u{0}".utf8)

    /// The exact bytes a signature with `counter` over `data` covers.
    public static func message(counter: UInt64, data: Data) -> Data {
        var message = domain
        withUnsafeBytes(of: counter.bigEndian) { message.append(contentsOf: $0) }
        message.append(data)
        return message
    }

    /// Whether `signature` (DER) is `key`'s signature over `data` with `counter`.
    public static func verify(signature: Data, counter: UInt64, data: Data, key: P256.Signing.PublicKey) -> Bool {
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
        return key.isValidSignature(parsed, for: message(counter: counter, data: data))
    }

    /// The same with the key given as SPKI PEM; false when it is not a P-256 key.
    public static func verify(signature: Data, counter: UInt64, data: Data, publicKeyPEM: String) -> Bool {
        guard let key = try? P256.Signing.PublicKey(pemRepresentation: publicKeyPEM) else { return false }
        return verify(signature: signature, counter: counter, data: data, key: key)
    }
}
