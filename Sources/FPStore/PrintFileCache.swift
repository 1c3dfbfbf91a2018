import FPCore
import FoundationEssentials
import Glibc
import Synchronization
import FPVocabulary

/// Decoded print files kept between operations of a long-running process (the service),
/// each under the file's identity: device, inode, size and change times. Writes are atomic
/// renames, so a changed print is a new inode and is read again; a deleted one is no longer
/// listed and never consulted. What the cache saves is the read, the JSON decoding and the
/// check of the reader's bytes, not the listing or the directory checks.
public final class PrintFileCache: Sendable {
    /// What identifies one version of a file.
    struct Signature: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let changed: Int64

        /// The file's signature, without following a link; nil when it is not a regular file.
        init?(path: String) {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }
    }

    private struct Entry {
        let signature: Signature
        let record: PrintRecord
        /// The check of the reader's bytes, once made (nil: not checked yet; "" : sound).
        var problem: String?
    }

    private let entries = Locked<[String: Entry]>([:])
    private let hits = Atomic<Int>(0)
    /// How many files are kept (``CacheBound``). Past it, entries of files that changed or
    /// went are dropped first, then others, down to the bound's target.
    let bound: CacheBound

    /// An empty cache; keep one for the life of the process and hand it to every operation.
    public init() {
        bound = .prints
    }

    /// An empty cache that keeps at most `maximumEntries` files (tests).
    package init(maximumEntries: Int) {
        bound = CacheBound(maximum: maximumEntries)
    }

    /// How many files are kept now.
    package var count: Int { entries.withLock { $0.count } }

    /// How many reads the cache saved (tests, status).
    package var savedReads: Int { hits.load(ordering: .relaxed) }

    /// The record of `path` if the file is still the version cached.
    func record(_ path: String, _ signature: Signature) -> PrintRecord? {
        let record = entries.withLock { $0[path].flatMap { $0.signature == signature ? $0.record : nil } }
        if record != nil { hits.add(1, ordering: .relaxed) }
        return record
    }

    func store(_ record: PrintRecord, path: String, signature: Signature) {
        entries.withLock { entries in
            entries[path] = Entry(signature: signature, record: record, problem: nil)
            guard bound.isExceeded(by: entries.count) else { return }
            // Stale first: the file is gone or is another version now.
            for (path, entry) in entries where Signature(path: path) != entry.signature { entries[path] = nil }
            while entries.count > bound.target, let any = entries.keys.first { entries[any] = nil }
        }
    }

    /// The result of checking the print's bytes, remembered with the version it was made on.
    package func problem(for record: PrintRecord, path: String, check: (PrintRecord) -> String?) -> String? {
        if let known = entries.withLock({ $0[path].flatMap { $0.record == record ? $0.problem : nil } }) {
            return known.isEmpty ? nil : known
        }
        let problem = check(record)
        entries.withLock { entries in
            if entries[path]?.record == record { entries[path]?.problem = problem ?? "" }
        }
        return problem
    }
}
