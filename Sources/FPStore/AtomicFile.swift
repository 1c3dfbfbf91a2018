import FPCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing state files so that a crash never leaves half a file:
/// write a temporary file (0600), fsync it, rename it over the old one,
/// fsync the directory. Directories the store creates are 0700.
///
/// State files are read defensively: a symlink is never followed, a FIFO or
/// device never blocks or floods the reader, and the size is capped, so that
/// whoever can plant a file cannot hang or exhaust a command. Every directory
/// touched must belong to this user and be closed to others.
enum AtomicFile {
    /// The largest state file read: a 5-stage NBIS print is about 8 KB as JSON.
    static let maximumSize = 4 << 20

    /// The file's bytes, or nil when it does not exist.
    static func read(_ path: String) throws(StoreError) -> Data? {
        try DirectorySafety.check(StatePath.parent(of: path))
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .damaged(path: path, reason: "is a symbolic link; state files are never followed through links")
            default: throw .io(path: path, reason: String(cString: strerror(errno)))
            }
        }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .damaged(path: path, reason: "is not a regular file (a FIFO, device, socket or directory is never read)")
        }
        guard info.st_size <= maximumSize else {
            throw .damaged(path: path, reason: "is \(info.st_size) bytes, more than any state file (\(maximumSize) bytes at most)")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            // The file grew after fstat: still capped.
            if data.count > maximumSize {
                throw .damaged(path: path, reason: "is more than \(maximumSize) bytes, more than any state file")
            }
        }
    }

    /// Writes atomically; call under the state lock. Stale temporary files that a
    /// killed process left in the same directory are removed first.
    static func write(_ data: Data, to path: String) throws(StoreError) {
        let directory = StatePath.parent(of: path)
        try makeDirectories(directory)
        StaleTemporaryFiles.remove(in: directory)
        let failure = data.withUnsafeBytes { bytes in
            FileReplacement.replace(path, with: bytes, mode: 0o600) {
                directory + "/.\(StatePath.name(of: path))\(StaleTemporaryFiles.marker)\(getpid())-\(UInt32.random(in: .min ... .max))"
            }
        }
        if let failure { throw .io(path: path, reason: failure) }
        syncDirectory(directory)
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws(StoreError) {
        try DirectorySafety.check(StatePath.parent(of: path))
        if unlink(path) != 0 && errno != ENOENT {
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
        syncDirectory(StatePath.parent(of: path))
    }

    /// Creates the directory and any missing parents with mode 0700; an
    /// existing one must be safe (see ``DirectorySafety``), except the parents
    /// above the state directory, which the store does not own.
    static func makeDirectories(_ path: String) throws(StoreError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .io(path: path, reason: "exists and is not a directory") }
            try DirectorySafety.check(path)
            return
        }
        let parent = StatePath.parent(of: path)
        if !parent.isEmpty && parent != path && !FileManager.default.fileExists(atPath: parent) { try makeDirectories(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .io(path: path, reason: "cannot create directory: \(String(cString: strerror(errno)))")
        }
    }

    /// Names of the entries in a directory (none when it does not exist), temporary files excluded.
    static func list(_ directory: String) throws(StoreError) -> [String] {
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        try DirectorySafety.check(directory)
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { !$0.hasPrefix(".") }
            .sorted()
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        Glibc.close(fd)
    }
}
