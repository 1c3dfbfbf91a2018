import FPStore
import FoundationEssentials

/// One passkey's public data, as the authenticator answers with it.
public struct PasskeyCredential: Sendable, Hashable {
    /// The credential id the site keeps.
    public let id: [UInt8]
    /// The site and account it was made for.
    public let fields: PasskeyFields
    /// The P-256 public key, X9.63 (65 bytes, uncompressed).
    public let publicKey: Data
    /// The signature counter of the last assertion (0: none yet).
    public let counter: UInt32
    /// Milliseconds since 1970 when it was made.
    public let createdAt: Int64
    /// True once it can never sign again (the passcode was removed).
    public let invalidated: Bool

    /// The passkey a key record holds; nil for a key of the API or a label that is no passkey's.
    init?(_ record: KeyRecord) {
        guard let fields = record.passkey, let id = Self.id(label: record.label) else { return nil }
        self.id = id
        self.fields = fields
        publicKey = record.publicKey
        counter = UInt32(clamping: record.counter)
        createdAt = record.createdAt
        invalidated = record.invalidated
    }

    /// The credential id a passkey's label spells in hex.
    private static func id(label: String) -> [UInt8]? {
        guard label.hasPrefix("passkey-") else { return nil }
        let hex = Array(label.utf8.dropFirst(8))
        guard hex.count == PasskeyVault.credentialIDLength * 2 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: hex.count, by: 2) {
            guard let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

/// A passkey's signature and the counter it carries.
public struct PasskeySignature: Sendable, Hashable {
    /// ECDSA P-256 with SHA-256 over the message, DER-encoded.
    public let signature: Data
    /// The counter value the message was built with.
    public let counter: UInt32
}
