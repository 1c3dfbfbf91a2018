import Crypto
import FoundationEssentials

/// The device identity key's statement about a new key, and its check.
///
/// The statement is canonical JSON (keys sorted, no whitespace) of
/// ``Statement``; the signature is ECDSA P-256/SHA-256 (DER) by the identity
/// key over exactly those bytes. A verifier checks the bytes it received
/// before it decodes them, and never re-encodes them.
public enum AttestationFormat {
    /// The `format` every statement of this layout carries.
    public static let format = "fpbridge-attestation-v1"

    /// What a statement says.
    public struct Statement: Sendable, Hashable, Codable {
        /// Always ``AttestationFormat/format``.
        public let format: String
        /// The attested public key: base64 of its X9.63 form (uncompressed point).
        public let publicKey: String
        /// The key's user.
        public let user: String
        /// The key's label.
        public let label: String
        /// The access control's name: `biometryCurrentSet`, `biometryAny`, `userPresence` or `devicePasscode`.
        public let accessControl: String
        /// Milliseconds since 1970 when the key was made.
        public let createdAt: Int64
        /// The fpbridge version that made the key.
        public let serviceVersion: String
        /// Where the private key lives: `service` (in fpbridged) or `development` (the caller's own files).
        public let protection: String

        /// A statement with every field given.
        public init(format: String, publicKey: String, user: String, label: String, accessControl: String,
                    createdAt: Int64, serviceVersion: String, protection: String) {
            self.format = format
            self.publicKey = publicKey
            self.user = user
            self.label = label
            self.accessControl = accessControl
            self.createdAt = createdAt
            self.serviceVersion = serviceVersion
            self.protection = protection
        }

        /// The statement's bytes as signed: sorted keys, no whitespace, slashes unescaped.
        public func encoded() throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(self)
        }
    }

    /// Whether `signature` is the identity key's signature over exactly `statement`.
    public static func verify(statement: Data, signature: Data, identityKey: P256.Signing.PublicKey) -> Bool {
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
        return identityKey.isValidSignature(parsed, for: statement)
    }

    /// The same with the identity key as SPKI PEM; false when it is not a P-256 key.
    public static func verify(statement: Data, signature: Data, identityKeyPEM: String) -> Bool {
        guard let key = try? P256.Signing.PublicKey(pemRepresentation: identityKeyPEM) else { return false }
        return verify(statement: statement, signature: signature, identityKey: key)
    }

    /// The statement in `bytes`; nil when they are not one of this format.
    public static func decode(_ bytes: Data) -> Statement? {
        guard let statement = try? JSONDecoder().decode(Statement.self, from: bytes), statement.format == format else { return nil }
        return statement
    }
}
