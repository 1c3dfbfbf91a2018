import Crypto
import FPKeyFormats
import FoundationEssentials

/// The device identity key's statement about a new key: which key, whose,
/// under which access control, made when, by which fpbridge, guarded how.
///
/// The statement is canonical JSON (keys sorted, no whitespace) of
/// ``Statement``, for example
/// `{"accessControl":"biometryCurrentSet","createdAt":1767225600000,"format":"fpbridge-attestation-v1","label":"login","protection":"service","publicKey":"BH…=","serviceVersion":"0.1.0","user":"alice"}`
/// (`publicKey`: base64 of the X9.63 point). The signature is ECDSA P-256
/// with SHA-256, DER-encoded, over exactly those bytes: a server verifies the
/// bytes it received with ``verify(statement:signature:identityKeyPEM:)``
/// before it decodes them, and never re-encodes them.
public struct KeyAttestation: Sendable, Hashable {
    /// The `format` every statement of this layout carries.
    public static var format: String { AttestationFormat.format }

    /// What a statement says (`AttestationFormat.Statement` in FPKeyFormats).
    public typealias Statement = AttestationFormat.Statement

    /// The statement's exact bytes.
    public let statement: Data
    /// ECDSA P-256/SHA-256 signature (DER) by the device identity key over ``statement``.
    public let signature: Data

    /// An attestation as stored or received.
    public init(statement: Data, signature: Data) {
        self.statement = statement
        self.signature = signature
    }

    /// The statement decoded; nil when the bytes are not a statement.
    public var contents: Statement? { AttestationFormat.decode(statement) }

    /// Whether `signature` is the identity key's signature over exactly `statement`.
    /// False for a key that is not PEM P-256, a signature that is not DER, or any changed byte.
    public static func verify(statement: Data, signature: Data, identityKeyPEM: String) -> Bool {
        AttestationFormat.verify(statement: statement, signature: signature, identityKeyPEM: identityKeyPEM)
    }

    /// Makes and signs the statement for a new key.
    static func make(_ statement: Statement, identity: P256.Signing.PrivateKey) throws(AuthError) -> KeyAttestation {
        do {
            let bytes = try statement.encoded()
            return KeyAttestation(statement: bytes, signature: try identity.signature(for: bytes).derRepresentation)
        } catch {
            throw AuthError(.readerFailure, "cannot sign the attestation: \(error)")
        }
    }

    /// Makes the statement and has `identity` sign it (a TPM's key).
    static func make(_ statement: Statement, identity: any DeviceIdentityKey) throws(AuthError) -> KeyAttestation {
        let bytes: Data
        do { bytes = try statement.encoded() } catch { throw AuthError(.readerFailure, "cannot encode the attestation: \(error)") }
        return KeyAttestation(statement: bytes, signature: try identity.signature(for: bytes))
    }
}
