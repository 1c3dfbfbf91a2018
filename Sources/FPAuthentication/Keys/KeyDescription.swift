import Crypto
import FPStore
import FoundationEssentials

/// A key's public data: everything about it but the private key.
public struct KeyDescription: Sendable, Hashable {
    /// The key's name among the user's keys.
    public let label: String
    /// The user the key belongs to.
    public let user: String
    /// What must happen before it signs.
    public let accessControl: KeyAccessControl
    /// Milliseconds since 1970 when it was made.
    public let createdAt: Int64
    /// The public key, SubjectPublicKeyInfo in PEM (`-----BEGIN PUBLIC KEY-----`).
    public let publicKeyPEM: String
    /// The public key as a JWK (RFC 7517): `kty` EC, `crv` P-256, `x` and `y` in base64url.
    public let publicKeyJWK: [String: String]
    /// The counter of the last signature (0: none yet).
    public let counter: UInt64
    /// True once the key can never sign again (`AuthErrorCode.keyInvalidated`).
    public let invalidated: Bool
    /// The device identity key's statement about this key.
    public let attestation: KeyAttestation

    /// ``publicKeyJWK`` as compact JSON with sorted keys.
    public var publicKeyJWKJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(publicKeyJWK)) ?? Data(), as: UTF8.self)
    }

    /// The description of a stored key; `path` names the file if its fields do not hold up.
    init(_ record: KeyRecord, path: String) throws(AuthError) {
        guard let accessControl = KeyAccessControl(rawValue: record.accessControl) else {
            throw AuthError(store: .damaged(path: path, reason: "unknown access control '\(record.accessControl)'"))
        }
        guard let key = try? P256.Signing.PublicKey(x963Representation: record.publicKey) else {
            throw AuthError(store: .damaged(path: path, reason: "its public key is not a P-256 point"))
        }
        label = record.label
        user = record.user
        self.accessControl = accessControl
        createdAt = record.createdAt
        publicKeyPEM = key.pemRepresentation
        publicKeyJWK = Self.jwk(key)
        counter = record.counter
        invalidated = record.invalidated
        attestation = KeyAttestation(statement: record.attestationStatement, signature: record.attestationSignature)
    }

    private static func jwk(_ key: P256.Signing.PublicKey) -> [String: String] {
        let point = key.x963Representation
        return ["kty": "EC", "crv": "P-256",
                "x": base64URL(point.dropFirst().prefix(32)), "y": base64URL(point.suffix(32))]
    }

    private static func base64URL(_ bytes: Data) -> String {
        Data(bytes).base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_")
            .replacing("=", with: "")
    }
}
