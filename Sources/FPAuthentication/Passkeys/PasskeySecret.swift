import Crypto
import FPStore
import FoundationEssentials

/// A passkey's `hmac-secret` (CTAP 2.1 §12.5): a secret of the credential's own, derived from
/// its private key with HKDF-SHA-256 (so that it is kept, sealed and deleted with the key, and
/// is itself stored nowhere), of which only HMACs of a site's salts ever leave, each inside a signature
/// made after a fingerprint match. The secret itself is never handed out.
public struct PasskeySecret: Sendable {
    private let key: SymmetricKey

    init(_ privateKey: P256.Signing.PrivateKey) {
        var data = privateKey.rawRepresentation
        var raw = [UInt8](data)
        defer {
            data.wipe()
            raw.wipe()
        }
        // The credential's CredRandomWithUV: every assertion here carries UV, so it is the one used.
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: raw), salt: Array("fpbridge passkey".utf8),
                                     info: Array("hmac-secret with uv".utf8), outputByteCount: 32)
    }

    /// HMAC-SHA-256 of `salt` (32 bytes) under the secret.
    public func hmac(_ salt: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: salt, using: key))
    }
}
