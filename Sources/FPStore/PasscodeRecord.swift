import Foundation

/// A passcode as stored: never the passcode, only a slow salted hash of it
/// and the parameters that made it.
public struct PasscodeRecord: Sendable, Hashable, Codable {
    /// The key-derivation function; "scrypt" today.
    public var algorithm: String
    /// scrypt's cost parameters (N, r, p).
    public var rounds: Int
    public var blockSize: Int
    public var parallelism: Int
    public var salt: Data
    public var hash: Data
    public var setAt: Date

    public init(algorithm: String, rounds: Int, blockSize: Int, parallelism: Int, salt: Data, hash: Data, setAt: Date) {
        self.algorithm = algorithm
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
        self.hash = hash
        self.setAt = setAt
    }
}

/// Passcode records on disk, `passcodes/USER.json`.
public struct PasscodeStore: Sendable {
    public let directory: StateDirectory

    public init(directory: StateDirectory) {
        self.directory = directory
    }

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
