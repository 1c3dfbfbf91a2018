import FoundationEssentials

/// `service/identity.json`: the device identity key that attests every new key,
/// its private half sealed like any other private key.
struct DeviceIdentityRecord: Sendable, Hashable, Codable {
    static let currentFormat = 1

    var format: Int
    /// The public key, X9.63 (uncompressed point, 65 bytes).
    var publicKey: Data
    /// The private key sealed under the master key (see ``SealedSecret``).
    var encryptedPrivateKey: Data
    /// Milliseconds since 1970 when the identity was made.
    var createdAt: Int64

    /// What the sealed private key is bound to.
    static let sealingOwner = "fpbridge-identity-v1"
}
