import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock across processes (`flock` on a lock file), so that two
/// processes updating counters or prints never lose one another's writes.
/// Held for whole read-modify-write transactions.
struct FileLock {
    let path: String

    func withLock<T>(_ body: () throws -> T) throws -> T {
        try AtomicFile.makeDirectories(StatePath.parent(of: path))
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.io(path: path, reason: "cannot open lock file: \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StoreError.io(path: path, reason: "cannot lock: \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
