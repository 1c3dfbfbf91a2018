import Crypto
import FoundationEssentials

/// Names derived from public keys, so that a client and a server agree on them
/// without storing anything: the first 16 bytes of SHA-256 over the key's
/// X9.63 point, in base64url.
public enum KeyIdentifiers {
    /// The id of a login credential (a device key).
    public static func credentialId(_ key: P256.Signing.PublicKey) -> String {
        identifier(key)
    }

    /// The id of a device: a machine's identity key together with the local user whose
    /// keys it attests (the attestation's `user`). Several people share a machine and its
    /// identity key; each of them is a device of their own, so one user's binding never
    /// stands for, replaces or revokes another's. The first 16 bytes of SHA-256 over the
    /// key's X9.63 point, a zero byte and the user name, in base64url.
    public static func deviceId(_ identityKey: P256.Signing.PublicKey, localUser: String) -> String {
        base64URL(Data(SHA256.hash(data: identityKey.x963Representation + [0] + Data(localUser.utf8)).prefix(16)))
    }

    /// The id of a machine's identity key alone, as the administrator's list of trusted
    /// identities names it (and as devices bound before a device was a machine and a user were named).
    public static func identityId(_ identityKey: P256.Signing.PublicKey) -> String {
        identifier(identityKey)
    }

    /// The label of a user's login key for the server at `origin` (scheme, host and port):
    /// `login-` and 16 base64url characters of SHA-256 over origin, a zero byte and the
    /// user name. A client binding a device and `fpbridged`'s identify-and-prove, which
    /// knows the user only after the scan, find the same key by it.
    public static func loginKeyLabel(origin: String, username: String) -> String {
        "login-" + base64URL(Data(SHA256.hash(data: Data("\(origin)\u{0}\(username)".utf8)).prefix(12)))
    }

    private static func identifier(_ key: P256.Signing.PublicKey) -> String {
        base64URL(Data(SHA256.hash(data: key.x963Representation).prefix(16)))
    }

    /// RFC 4648 §5 without padding.
    public static func base64URL(_ bytes: Data) -> String {
        // Byte by byte: the servers call this for every token and challenge.
        var text = Array(bytes.base64EncodedString().utf8)
        while text.last == UInt8(ascii: "=") { text.removeLast() }
        for index in text.indices {
            switch text[index] {
            case UInt8(ascii: "+"): text[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): text[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Bytes from base64url with or without padding; nil when it is not base64url.
    public static func bytes(base64URL text: String) -> Data? {
        var base64: [UInt8] = []
        base64.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                base64.append(byte)
            case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(base64))
    }
}
