import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import FPCore

/// An exclusive lock across processes (`flock` on a lock file), so that two
/// processes updating counters or prints never lose one another's writes.
/// Held for whole read-modify-write transactions.
struct FileLock {
    let path: String

    /// - Throws: ``StoreError/damaged(path:reason:)`` when something other than a regular
    ///   file is at `path` (never followed, never locked: a link could point anywhere, and
    ///   a lock on a FIFO or a folder is not the one every other process takes);
    ///   ``StoreError/io(path:reason:)`` when it cannot be opened or locked.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        try AtomicFile.makeDirectories(StatePath.parent(of: path))
        if let problem = Self.problem(at: path) { throw StoreError.damaged(path: path, reason: problem) }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            let failure = IOFailure.last
            // Replaced between the look and the open: say what is there now.
            if let problem = Self.problem(at: path) { throw StoreError.damaged(path: path, reason: problem) }
            throw StoreError.failed(path: path, "cannot open lock file", because: failure)
        }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError.damaged(path: path, reason: "the lock file is not a regular file")
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StoreError.failed(path: path, "cannot lock", because: .last)
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// What is wrong with the lock file at `path`, nil when it is a regular file or absent.
    static func problem(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? nil : "the lock file cannot be looked at: \(Errno.last.description)"
        }
        let kind: String? = switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a device"
        }
        return kind.map { "the lock file is \($0), not a regular file: nothing can be counted until it is moved aside" }
    }
}
