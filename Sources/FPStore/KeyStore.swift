import Crypto
import FoundationEssentials

/// Keys released by a match, one file per user and label:
/// `keys/USER/LABEL.json` (see ``KeyRecord``).
///
/// Reading is public and gives public data only; writing, sealing and opening
/// private keys are for the engine, inside the state lock, where each
/// signature's counter is taken and each invalidation recorded. A file that
/// cannot be read is an error naming it, never overwritten behind the user's back.
public struct KeyStore: Sendable {
    /// The state directory whose `keys/` this reads.
    public let directory: StateDirectory

    /// The keys of the state in `directory`.
    public init(directory: StateDirectory) {
        self.directory = directory
    }

    /// The file a key is kept in.
    /// - Throws: ``StoreError/invalidUserName(_:)`` or ``StoreError/invalidKeyLabel(_:)``
    ///   for a name that cannot be a file name.
    public func path(user: String, label: String) throws(StoreError) -> String {
        try PathComponent.validateUser(user)
        try PathComponent.validateLabel(label)
        return directory.file("keys", user, label + ".json")
    }

    /// One key, or nil when the user has none of that label.
    /// - Throws: ``StoreError/damaged(path:reason:)`` for a file that cannot be used.
    public func record(user: String, label: String) throws(StoreError) -> KeyRecord? {
        try directory.checkRoot()
        return try load(try path(user: user, label: label))
    }

    /// The user's keys by label; the first damaged file is an error naming it.
    /// - Throws: ``StoreError/damaged(path:reason:)``, ``StoreError/invalidUserName(_:)``.
    public func records(user: String) throws(StoreError) -> [KeyRecord] {
        try directory.checkRoot()
        try PathComponent.validateUser(user)
        var records: [KeyRecord] = []
        // By file, not by label: a planted file whose name is no label is damage, not bad input.
        for path in try files(user: user) {
            if let record = try load(path) { records.append(record) }
        }
        return records
    }

    /// The user's key files by path, whatever their names, without reading them.
    /// - Throws: ``StoreError/invalidUserName(_:)``, or an unsafe directory.
    public func files(user: String) throws(StoreError) -> [String] {
        try labels(user: user).map { directory.file("keys", user, $0 + ".json") }
    }

    /// The key in a file by path, nil when there is none, or the reason it cannot be used (repairs).
    /// - Throws: ``StoreError/damaged(path:reason:)``.
    public func record(path: String) throws(StoreError) -> KeyRecord? {
        try directory.checkRoot()
        return try load(path)
    }

    /// Every user name with a keys folder, in order.
    public func userNames() throws(StoreError) -> [String] {
        try directory.checkRoot()
        return try AtomicFile.list(directory.file("keys")).filter { (try? PathComponent.validateUser($0)) != nil }
    }

    /// The labels of the user's key files, in order, without reading them.
    /// - Throws: ``StoreError/invalidUserName(_:)``, or an unsafe directory.
    public func labels(user: String) throws(StoreError) -> [String] {
        try directory.checkRoot()
        try PathComponent.validateUser(user)
        return try AtomicFile.list(directory.file("keys", user)).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
    }

    /// Runs `body` holding the state directory's cross-process lock.
    package func withLock<T>(_ body: () throws -> T) throws -> T {
        try StateLock(directory: directory).withLock(body)
    }

    /// Stores a key, replacing the file of the same user and label; call inside ``withLock(_:)``.
    package func save(_ record: KeyRecord) throws(StoreError) {
        try AtomicFile.write(StateCoding.encode(record), to: try path(user: record.user, label: record.label))
    }

    /// Removes a key; false when there was none. Call inside ``withLock(_:)``.
    @discardableResult
    package func delete(user: String, label: String) throws(StoreError) -> Bool {
        let path = try path(user: user, label: label)
        guard try AtomicFile.read(path) != nil else { return false }
        try AtomicFile.remove(path)
        return true
    }

    /// Seals a new private key for `user`'s key `label`, making the master key on
    /// first use; call inside ``withLock(_:)``.
    package func seal(_ key: P256.Signing.PrivateKey, user: String, label: String) throws(StoreError) -> Data {
        var raw = key.rawRepresentation
        defer { raw.wipe() }
        let owner = KeyRecord.sealingOwner(user: user, label: label)
        return try SealedSecret.seal(raw, under: try ServiceKeys(directory: directory).masterKey(create: true), owner: owner)
    }

    /// Opens a record's private key; it must belong to the record's public key.
    package func privateKey(of record: KeyRecord) throws(StoreError) -> P256.Signing.PrivateKey {
        let path = try path(user: record.user, label: record.label)
        var raw = try SealedSecret.open(record.encryptedPrivateKey, under: try ServiceKeys(directory: directory).masterKey(create: false),
                                        owner: record.sealingOwner, path: path)
        defer { raw.wipe() }
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: raw),
              key.publicKey.x963Representation == record.publicKey
        else { throw .damaged(path: path, reason: "its private key does not belong to its public key") }
        return key
    }

    /// Reads and checks one key file: it must parse, and say what its path says.
    private func load(_ path: String) throws(StoreError) -> KeyRecord? {
        guard let data = try AtomicFile.read(path) else { return nil }
        let record = try StateCoding.decode(KeyRecord.self, from: data, path: path)
        guard record.format == KeyRecord.currentFormat else {
            throw .damaged(path: path, reason: "unknown format version \(record.format)")
        }
        guard (try? self.path(user: record.user, label: record.label)) == path else {
            throw .damaged(path: path, reason: "it describes \(record.user)'s key '\(record.label)', which belongs elsewhere")
        }
        guard (try? P256.Signing.PublicKey(x963Representation: record.publicKey)) != nil else {
            throw .damaged(path: path, reason: "its public key is not a P-256 point")
        }
        return record
    }
}
