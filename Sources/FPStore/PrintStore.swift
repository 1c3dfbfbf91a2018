import Crypto
import FPCore
import FPKeyFormats
import FoundationEssentials

/// Enrolled prints on disk, one file per user, reader and finger:
/// `prints/USER/DRIVER/DEVICE-ID/FINGER.json`.
///
/// Writes are atomic and serialised across processes by the state
/// directory's lock; a file that cannot be read is reported by path and
/// never overwritten or removed behind the user's back.
public struct PrintStore: Sendable {
    /// The state directory whose `prints/` this reads.
    public let directory: StateDirectory
    /// Decoded files kept between reads (a long-running process); nil reads every file each time.
    package let cache: PrintFileCache?

    /// The prints of the state in `directory`.
    public init(directory: StateDirectory) {
        self.directory = directory
        cache = nil
    }

    /// The same, keeping decoded files in `cache` between reads.
    package init(directory: StateDirectory, cache: PrintFileCache?) {
        self.directory = directory
        self.cache = cache
    }

    /// Runs `body` holding the state directory's cross-process lock.
    package func withLock<T>(_ body: () throws -> T) throws -> T {
        try StateLock(directory: directory).withLock(body)
    }

    /// The file a print is kept in.
    public func path(user: String, reader: ReaderIdentity, finger: Finger) throws(StoreError) -> String {
        try readerDirectory(user: user, reader: reader) + "/\(finger.rawValue).json"
    }

    /// The user's prints for one reader (all readers when nil), by finger.
    /// The first damaged file is an error naming it.
    public func prints(user: String, reader: ReaderIdentity?) throws(StoreError) -> [PrintRecord] {
        var records: [PrintRecord] = []
        for entry in try entries(user: user, reader: reader) {
            switch entry {
            case .record(let record): records.append(record)
            case .damaged(let error): throw error
            }
        }
        return records
    }

    /// The user's print files for one reader (all readers when nil), each read
    /// once: the usable ones by finger, then the damaged ones by path.
    public func entries(user: String, reader: ReaderIdentity?) throws(StoreError) -> [PrintEntry] {
        try entries(user: user, reader: reader, in: StatePass(directory))
    }

    /// ``entries(user:reader:)`` within a pass over many users: the state directory and
    /// `prints/` are not checked again.
    package func entries(user: String, reader: ReaderIdentity?, in pass: StatePass) throws(StoreError) -> [PrintEntry] {
        try PathComponent.validateUser(user)
        if !pass.printsChecked(in: directory) {
            try directory.checkRoot()
            try DirectorySafety.check(directory.file("prints"))
        }
        let userDirectory = directory.file("prints", user)
        var paths: [String] = []
        if let reader {
            let folder = try checkedReaderDirectory(user: user, reader: reader)
            paths = try AtomicFile.list(folder).map { folder + "/" + $0 }
        } else {
            for driver in try AtomicFile.list(userDirectory) {
                for device in try AtomicFile.list(userDirectory + "/" + driver) {
                    let folder = "\(userDirectory)/\(driver)/\(device)"
                    paths += try AtomicFile.list(folder).map { folder + "/" + $0 }
                }
            }
        }
        var records: [PrintRecord] = []
        var damaged: [PrintEntry] = []
        // Each path's folder was checked by the listing that found it.
        for path in paths where path.hasSuffix(".json") {
            do {
                if let record = try load(path, folderChecked: true) { records.append(record) }
            } catch {
                damaged.append(.damaged(error))
            }
        }
        records.sort { ($0.reader.description, $0.finger) < ($1.reader.description, $1.finger) }
        return records.map(PrintEntry.record) + damaged
    }

    /// Every user name with a prints folder, in order.
    public func userNames() throws(StoreError) -> [String] {
        try directory.checkRoot()
        return try AtomicFile.list(directory.file("prints")).filter { (try? PathComponent.validateUser($0)) != nil }
    }

    /// One print, or nil when that finger is not enrolled on that reader.
    public func print(user: String, reader: ReaderIdentity, finger: Finger) throws(StoreError) -> PrintRecord? {
        try directory.checkRoot()
        try DirectorySafety.check(directory.file("prints"))
        return try load(try checkedReaderDirectory(user: user, reader: reader) + "/\(finger.rawValue).json", folderChecked: false)
    }

    /// Every user with at least one print on the reader.
    public func users(reader: ReaderIdentity) throws(StoreError) -> [String] {
        var users: [String] = []
        for user in try userNames() where try !prints(user: user, reader: reader).isEmpty {
            users.append(user)
        }
        return users
    }

    /// Stores a print, replacing any earlier one for the same user, reader and finger.
    /// Call inside ``withLock(_:)``; enrolling goes through the engine, which asks for the passcode first.
    package func save(_ record: PrintRecord) throws(StoreError) {
        let path = try path(user: record.user, reader: record.reader, finger: record.finger)
        try AtomicFile.write(StateCoding.encode(record), to: path)
    }

    /// Removes a print; false when there was none.
    @discardableResult
    package func delete(user: String, reader: ReaderIdentity, finger: Finger) throws(StoreError) -> Bool {
        let path = try path(user: user, reader: reader, finger: finger)
        guard FileManager.default.fileExists(atPath: path) else { return false }
        try AtomicFile.remove(path)
        return true
    }

    /// Every readable print of every user (repairs: which epochs the prints hold).
    package func everyRecord() throws(StoreError) -> [PrintRecord] {
        var records: [PrintRecord] = []
        for user in try userNames() { records += try entries(user: user, reader: nil).compactMap(\.record) }
        return records
    }

    /// Removes every print file of the user on every reader; call inside ``withLock(_:)``.
    /// Readable prints are deleted and returned; damaged ones are moved to quarantine (a user
    /// without a passcode keeps nothing enrolled, and a repair never destroys evidence).
    package func removeAll(user: String) throws(StoreError) -> [PrintRecord] {
        var removed: [PrintRecord] = []
        for entry in try entries(user: user, reader: nil) {
            switch entry {
            case .record(let record):
                try AtomicFile.remove(try path(user: record.user, reader: record.reader, finger: record.finger))
                removed.append(record)
            case .damaged(let error):
                guard case .damaged(let path, _) = error else { throw error }
                _ = try Quarantine(directory: directory).move(path)
            }
        }
        return removed
    }

    /// A stable hash over the user's enrolled prints (Apple's
    /// `evaluatedPolicyDomainState`): it changes whenever a print is added,
    /// replaced or deleted. Nil when the user has no prints.
    public func enrollmentStateHash(user: String) throws(StoreError) -> String? {
        let records = try prints(user: user, reader: nil)
        guard !records.isEmpty else { return nil }
        var hasher = SHA256()
        for record in records {
            let printDigest = SHA256.hash(data: record.print.bytes)
            let line = "\(record.reader.driver)\u{0}\(record.reader.deviceID)\u{0}\(record.finger.rawValue)\u{0}"
            hasher.update(data: Array(line.utf8))
            hasher.update(data: Array(printDigest))
        }
        return Hex.encode(hasher.finalize())
    }

    /// The reader's folder, after checking every folder above it below `prints/` (which the
    /// caller checks): the reader folder itself is checked where it is read, but one of its
    /// parents open to others (or a link) could have had it swapped.
    private func checkedReaderDirectory(user: String, reader: ReaderIdentity) throws(StoreError) -> String {
        let folder = try readerDirectory(user: user, reader: reader)
        var parent = StatePath.parent(of: folder)
        while parent.count > directory.file("prints").count {
            try DirectorySafety.check(parent)
            parent = StatePath.parent(of: parent)
        }
        return folder
    }

    private func readerDirectory(user: String, reader: ReaderIdentity) throws(StoreError) -> String {
        try PathComponent.validateUser(user)
        return directory.file("prints", user, PathComponent.encode(reader.driver), PathComponent.encode(reader.deviceID))
    }

    /// Reads and checks one print file: it must parse, and say what its path says.
    /// `folderChecked`: its folder was checked (``DirectorySafety``) by the listing that found it.
    private func load(_ path: String, folderChecked: Bool) throws(StoreError) -> PrintRecord? {
        // Taken before the read: a file replaced in between is cached under the old
        // signature, which the next look no longer matches.
        let signature = cache != nil ? PrintFileCache.Signature(path: path) : nil
        if !folderChecked { try DirectorySafety.check(StatePath.parent(of: path)) }
        if let cache, let signature, let record = cache.record(path, signature) { return record }
        guard let record = try decode(path) else { return nil }
        if let cache, let signature { cache.store(record, path: path, signature: signature) }
        return record
    }

    /// Reads a print file whose folder the caller has checked.
    private func decode(_ path: String) throws(StoreError) -> PrintRecord? {
        guard let data = try AtomicFile.read(path, parentChecked: true) else { return nil }
        let record = try StateCoding.decode(PrintRecord.self, from: data, path: path)
        guard record.format == PrintRecord.currentFormat else {
            throw .damaged(path: path, reason: "unknown format version \(record.format)")
        }
        let expected = try self.path(user: record.user, reader: record.reader, finger: record.finger)
        guard expected == path else {
            throw .damaged(path: path, reason: "it describes \(record.user)'s \(record.finger.rawValue) on \(record.reader), which belongs elsewhere")
        }
        guard record.print.bytes.count > 3 else {
            throw .damaged(path: path, reason: "the print is only \(record.print.bytes.count) bytes long")
        }
        return record
    }
}
