import Crypto
import Foundation

/// Names derived from public keys, so that a client and a server agree on them
/// without storing anything: the first 16 bytes of SHA-256 over the key's
/// X9.63 point, in base64url.
public enum KeyIdentifiers {
    /// The id of a login credential (a device key).
    public static func credentialId(_ key: P256.Signing.PublicKey) -> String {
        identifier(key)
    }

    /// The id of a device (its identity key).
    public static func deviceId(_ identityKey: P256.Signing.PublicKey) -> String {
        identifier(identityKey)
    }

    private static func identifier(_ key: P256.Signing.PublicKey) -> String {
        base64URL(Data(SHA256.hash(data: key.x963Representation).prefix(16)))
    }

    /// RFC 4648 §5 without padding.
    public static func base64URL(_ bytes: Data) -> String {
        bytes.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Bytes from base64url with or without padding; nil when it is not base64url.
    public static func bytes(base64URL text: String) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "=") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            .replacingOccurrences(of: "=", with: "")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
