import FPKeyFormats
import FoundationEssentials

/// A passcode as stored: never the passcode, only a slow salted hash of it
/// and the parameters that made it.
public struct PasscodeRecord: Sendable, Hashable, Codable {
    /// The key-derivation function; "scrypt" today.
    public var algorithm: String
    /// scrypt's cost parameters (N, r, p).
    public var rounds: Int
    /// scrypt's block size parameter r.
    public var blockSize: Int
    /// scrypt's parallelism parameter p.
    public var parallelism: Int
    /// The random salt the hash was made with.
    public var salt: Data
    /// The scrypt hash of the passcode; the passcode itself is never stored.
    public var hash: Data
    /// When the passcode was set.
    public var setAt: Date
    /// The scrypt hash, with the same parameters and a salt of its own, of the first 16 bytes
    /// of the passcode's SHA-256: what a FIDO2 client sends in place of the PIN (CTAP's
    /// `pinHash`), so that a security key's PIN can be the passcode. Nil in a record made
    /// before it existed; the next correct passcode fills it in.
    public var pinDigest: PinDigest?

    /// Whether `other` is a record of the same passcode, set at the same moment: its PIN digest,
    /// filled in later by whoever enters the passcode next, is not a change of passcode.
    public func isSamePasscode(as other: PasscodeRecord?) -> Bool {
        guard let other else { return false }
        return algorithm == other.algorithm && rounds == other.rounds && blockSize == other.blockSize
            && parallelism == other.parallelism && salt == other.salt && hash == other.hash && setAt == other.setAt
    }

    /// The scrypt hash of CTAP's `pinHash` of the passcode, and its salt.
    public struct PinDigest: Sendable, Hashable, Codable {
        /// The random salt the hash was made with.
        public var salt: Data
        /// scrypt of LEFT(SHA-256(passcode), 16).
        public var hash: Data

        /// A digest of these bytes.
        public init(salt: Data, hash: Data) {
            self.salt = salt
            self.hash = hash
        }
    }

    /// A record of a hashed passcode.
    public init(algorithm: String, rounds: Int, blockSize: Int, parallelism: Int, salt: Data, hash: Data, setAt: Date,
                pinDigest: PinDigest? = nil) {
        self.pinDigest = pinDigest
        self.algorithm = algorithm
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
        self.hash = hash
        self.setAt = setAt
    }


    private enum CodingKeys: String, CodingKey {
        case algorithm, rounds, blockSize, parallelism, salt, hash, setAt, pinDigest
    }

    /// Reads a record and refuses parameters no honest record has, before scrypt ever runs on them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func bounded(_ key: CodingKeys, _ range: ClosedRange<Int>) throws -> Int {
            let value = try container.decode(Int.self, forKey: key)
            guard range.contains(value) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "\(key.stringValue) \(value) is outside \(range)")
            }
            return value
        }
        algorithm = try container.decode(String.self, forKey: .algorithm)
        // The bounds are scrypt's as fpbridge accepts it everywhere (FPKeyFormats.Scrypt).
        rounds = try bounded(.rounds, Scrypt.acceptedRounds)
        guard rounds & (rounds - 1) == 0 else {
            throw DecodingError.dataCorruptedError(forKey: .rounds, in: container, debugDescription: "rounds \(rounds) is not a power of two")
        }
        blockSize = try bounded(.blockSize, Scrypt.acceptedBlockSize)
        parallelism = try bounded(.parallelism, Scrypt.acceptedParallelism)
        salt = try container.decode(Data.self, forKey: .salt)
        guard Scrypt.acceptedSaltLength.contains(salt.count) else {
            throw DecodingError.dataCorruptedError(forKey: .salt, in: container, debugDescription: "a salt of \(salt.count) bytes")
        }
        hash = try container.decode(Data.self, forKey: .hash)
        setAt = try container.decode(Date.self, forKey: .setAt)
        pinDigest = try container.decodeIfPresent(PinDigest.self, forKey: .pinDigest)
        if let digest = pinDigest, !Scrypt.acceptedSaltLength.contains(digest.salt.count) || digest.hash.count != Scrypt.hashLength {
            throw DecodingError.dataCorruptedError(forKey: .pinDigest, in: container,
                                                   debugDescription: "a PIN digest of \(digest.hash.count) bytes with a salt of \(digest.salt.count)")
        }
    }
}

/// Passcode records on disk, `passcodes/USER.json`.
public struct PasscodeStore: Sendable {
    /// The state directory whose `passcodes/` this reads.
    public let directory: StateDirectory

    /// The passcode records of the state in `directory`.
    public init(directory: StateDirectory) {
        self.directory = directory
    }

    /// The file that holds `user`'s passcode record.
    /// - Throws: ``StoreError/invalidUserName(_:)`` for a name that cannot be a file name.
    public func path(user: String) throws(StoreError) -> String {
        try PathComponent.validateUser(user)
        return directory.file("passcodes", user + ".json")
    }

    /// The user's record, nil when no passcode is set; a damaged file is an error naming it.
    public func record(user: String) throws(StoreError) -> PasscodeRecord? {
        try directory.checkRoot()
        let path = try path(user: user)
        guard let data = try AtomicFile.read(path) else { return nil }
        return try StateCoding.decode(PasscodeRecord.self, from: data, path: path)
    }

    /// Every user with a passcode file.
    public func userNames() throws(StoreError) -> [String] {
        try directory.checkRoot()
        return try AtomicFile.list(directory.file("passcodes")).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
    }

    package func save(_ record: PasscodeRecord, user: String) throws(StoreError) {
        try AtomicFile.write(StateCoding.encode(record), to: try path(user: user))
    }

    package func remove(user: String) throws(StoreError) {
        try AtomicFile.remove(try path(user: user))
    }
}
