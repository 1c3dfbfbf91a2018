import FoundationEssentials

/// One key released by a match, as stored in `keys/USER/LABEL.json`: public
/// data in the clear, the private key sealed under the master key.
///
/// The rules that use these fields (which evaluation releases the key, when it
/// is invalidated, how the counter goes up) live in the engine's `KeyVault`.
public struct KeyRecord: Sendable, Hashable, Codable {
    /// The file format version; bumped when the layout changes.
    public static let currentFormat = 1

    /// The file format version this record was written in.
    public var format: Int
    /// The user the key belongs to.
    public var user: String
    /// The key's name among the user's keys.
    public var label: String
    /// The access control's name (`biometryCurrentSet`, …), checked by the engine.
    public var accessControl: String
    /// Milliseconds since 1970 when the key was made.
    public var createdAt: Int64
    /// The P-256 public key, X9.63 (uncompressed point, 65 bytes).
    public var publicKey: Data
    /// The private key, AES-256-GCM sealed under the master key (nonce, ciphertext, tag).
    public var encryptedPrivateKey: Data
    /// The user's enrollment state hash when the key was made (nil: no print then).
    public var enrollmentStateHash: String?
    /// True once the key can never sign again (its enrollment state changed).
    public var invalidated: Bool
    /// The counter of the last signature (0: none yet); each signature takes the next value.
    public var counter: UInt64
    /// The attestation statement's exact bytes, as the device identity key signed them.
    public var attestationStatement: Data
    /// The device identity key's signature (ECDSA P-256, SHA-256, DER) over the statement.
    public var attestationSignature: Data
    /// For a passkey (a WebAuthn credential), the site and account it was made for; nil for a
    /// key of fpbridge's own API. Fixed when the key is made: a key signs one protocol's
    /// messages only.
    public var passkey: PasskeyFields?

    /// A new record in the current format: not invalidated, no signature yet.
    public init(user: String, label: String, accessControl: String, createdAt: Int64, publicKey: Data,
                encryptedPrivateKey: Data, enrollmentStateHash: String?, attestationStatement: Data, attestationSignature: Data) {
        format = Self.currentFormat
        self.user = user
        self.label = label
        self.accessControl = accessControl
        self.createdAt = createdAt
        self.publicKey = publicKey
        self.encryptedPrivateKey = encryptedPrivateKey
        self.enrollmentStateHash = enrollmentStateHash
        invalidated = false
        counter = 0
        self.attestationStatement = attestationStatement
        self.attestationSignature = attestationSignature
        passkey = nil
    }

    private enum CodingKeys: String, CodingKey {
        case format, user, label, accessControl, createdAt, publicKey, encryptedPrivateKey, enrollmentStateHash,
             invalidated, counter, attestationStatement, attestationSignature, passkey
    }

    /// Reads a key file and refuses sizes no honest record has.
    /// - Throws: `DecodingError` for a missing field or a field of the wrong size.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func bytes(_ key: CodingKeys, _ sizes: ClosedRange<Int>) throws -> Data {
            let value = try container.decode(Data.self, forKey: key)
            guard sizes.contains(value.count) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "\(key.stringValue) is \(value.count) bytes, not \(sizes)")
            }
            return value
        }
        format = try container.decode(Int.self, forKey: .format)
        user = try container.decode(String.self, forKey: .user)
        label = try container.decode(String.self, forKey: .label)
        accessControl = try container.decode(String.self, forKey: .accessControl)
        createdAt = try container.decode(Int64.self, forKey: .createdAt)
        publicKey = try bytes(.publicKey, 65...65)
        encryptedPrivateKey = try bytes(.encryptedPrivateKey, SealedSecret.sealedKeyLength...SealedSecret.sealedKeyLength)
        enrollmentStateHash = try container.decodeIfPresent(String.self, forKey: .enrollmentStateHash)
        invalidated = try container.decode(Bool.self, forKey: .invalidated)
        counter = try container.decode(UInt64.self, forKey: .counter)
        attestationStatement = try bytes(.attestationStatement, 1...4096)
        attestationSignature = try bytes(.attestationSignature, 8...72)
        // Absent in files written before passkeys, which are keys of the API.
        passkey = try container.decodeIfPresent(PasskeyFields.self, forKey: .passkey)
    }

    /// What the sealed private key is bound to: this user's key of this label only.
    var sealingOwner: String { Self.sealingOwner(user: user, label: label) }

    static func sealingOwner(user: String, label: String) -> String { "fpbridge-key-v1\u{0}\(user)\u{0}\(label)" }
}
