import FoundationEssentials

/// What a passkey's key file holds beyond a key's: the relying party and the account a
/// WebAuthn credential was made for (CTAP 2.1 §6.1, `rp` and `user`).
public struct PasskeyFields: Sendable, Hashable, Codable {
    /// The longest relying party id kept, in UTF-8 bytes (a DNS name is at most 253).
    public static let maximumRelyingPartyLength = 256
    /// The longest user handle WebAuthn allows, in bytes.
    public static let maximumUserHandleLength = 64
    /// The longest name or display name kept, in UTF-8 bytes (CTAP 2.1 lets an authenticator
    /// truncate them to 64).
    public static let maximumNameLength = 64

    /// The relying party id (`example.com`), whose SHA-256 the credential's signatures carry.
    public var relyingParty: String
    /// The account's handle at the relying party (1 to 64 bytes, opaque).
    public var userHandle: Data
    /// The account's name, as the site gave it (`alice@example.com`).
    public var userName: String?
    /// The account's display name.
    public var displayName: String?
    /// Whether the site may find the credential without naming it (a discoverable credential).
    public var discoverable: Bool
    /// Whether the credential was made with CTAP's `hmac-secret` extension: its assertions can
    /// carry HMACs of the site's salts under a secret of the credential's own. False in records
    /// made before it existed.
    public var hmacSecret: Bool
    /// CTAP's credProtect level (1 userVerificationOptional, 2 …WithCredentialIDList, 3
    /// userVerificationRequired) the site asked for; 1 in records made before it was kept.
    /// Every assertion here needs a match, so each level is held; credential management shows it.
    public var credentialProtection: Int

    /// The fields of a new passkey; names longer than ``maximumNameLength`` must be cut by the caller.
    public init(relyingParty: String, userHandle: Data, userName: String?, displayName: String?, discoverable: Bool,
                hmacSecret: Bool = false, credentialProtection: Int = 1) {
        self.hmacSecret = hmacSecret
        self.credentialProtection = credentialProtection
        self.relyingParty = relyingParty
        self.userHandle = userHandle
        self.userName = userName
        self.displayName = displayName
        self.discoverable = discoverable
    }

    private enum CodingKeys: String, CodingKey {
        case relyingParty, userHandle, userName, displayName, discoverable, hmacSecret, credentialProtection
    }

    /// Reads the fields and refuses sizes no honest record has.
    /// - Throws: `DecodingError` for a missing field or one of the wrong size.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func checked<T>(_ value: T, _ key: CodingKeys, size: Int, limit: Int) throws -> T {
            guard size <= limit else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "\(key.stringValue) is \(size) bytes, more than \(limit)")
            }
            return value
        }
        let relyingParty = try container.decode(String.self, forKey: .relyingParty)
        self.relyingParty = try checked(relyingParty, .relyingParty, size: relyingParty.utf8.count, limit: Self.maximumRelyingPartyLength)
        guard !relyingParty.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .relyingParty, in: container, debugDescription: "relyingParty is empty")
        }
        let handle = try container.decode(Data.self, forKey: .userHandle)
        userHandle = try checked(handle, .userHandle, size: handle.count, limit: Self.maximumUserHandleLength)
        let name = try container.decodeIfPresent(String.self, forKey: .userName)
        userName = try checked(name, .userName, size: name?.utf8.count ?? 0, limit: Self.maximumNameLength)
        let display = try container.decodeIfPresent(String.self, forKey: .displayName)
        displayName = try checked(display, .displayName, size: display?.utf8.count ?? 0, limit: Self.maximumNameLength)
        discoverable = try container.decode(Bool.self, forKey: .discoverable)
        hmacSecret = try container.decodeIfPresent(Bool.self, forKey: .hmacSecret) ?? false
        credentialProtection = try container.decodeIfPresent(Int.self, forKey: .credentialProtection) ?? 1
        guard (1...3).contains(credentialProtection) else {
            throw DecodingError.dataCorruptedError(forKey: .credentialProtection, in: container,
                                                   debugDescription: "credentialProtection \(credentialProtection) is not 1, 2 or 3")
        }
    }
}
