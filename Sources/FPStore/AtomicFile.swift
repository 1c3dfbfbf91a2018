import FPCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

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

    /// The file's bytes, or nil when it does not exist. `parentChecked`: the caller checked
    /// the file's folder (``DirectorySafety``) in the same pass, a moment ago.
    static func read(_ path: String, parentChecked: Bool = false) throws(StoreError) -> Data? {
        guard let (fd, info) = try openExisting(path, O_RDONLY, parentChecked: parentChecked) else { return nil }
        defer { Glibc.close(fd) }
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
                throw .failed(path: path, because: .last)
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
        if let failure { throw .failed(path: path, because: failure) }
        syncDirectory(directory)
    }

    /// Rewrites an existing file of exactly `data.count` bytes in place (one `pwrite`, then
    /// `fdatasync`); call under the state lock. It needs no new block of the filesystem, so a
    /// full disk does not stop it. False, with nothing written, when the file is missing or of
    /// another size or kind: the caller then replaces it whole with ``write(_:to:)``.
    ///
    /// Copy-on-write filesystems (btrfs, ZFS) allocate on every write, in place or not: there a
    /// full disk still fails this write, and the engine then refuses the decision (fail closed).
    static func overwrite(_ data: Data, at path: String) throws(StoreError) -> Bool {
        try DirectorySafety.check(StatePath.parent(of: path))
        StaleTemporaryFiles.remove(in: StatePath.parent(of: path))
        // A file this user may not write (a 0400 counter) is replaced whole, not left to lock
        // everyone out as unrecordable.
        guard let (fd, info) = try openExisting(path, O_WRONLY, absentOn: [ENOENT, EACCES]) else { return false }
        defer { Glibc.close(fd) }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size == data.count, info.st_nlink == 1 else { return false }
        let failure: IOFailure? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = pwrite(fd, bytes.baseAddress! + offset, bytes.count - offset, off_t(offset))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return written < 0 ? .last : IOFailure("no byte was written") }
                offset += written
            }
            return fdatasync(fd) == 0 ? nil : .last
        }
        if let failure { throw .failed(path: path, because: failure) }
        return true
    }

    /// Opens a state file that exists, never through a link and never blocking on a FIFO, in a
    /// directory that passes ``DirectorySafety``: its descriptor and status, or nil when there
    /// is no such file (or `open` failed with another of `absentOn`).
    private static func openExisting(_ path: String, _ access: Int32, absentOn: Set<Int32> = [ENOENT],
                                     parentChecked: Bool = false) throws(StoreError) -> (Int32, stat)? {
        if !parentChecked { try DirectorySafety.check(StatePath.parent(of: path)) }
        let fd = open(path, access | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 {
            switch errno {
            case let code where absentOn.contains(code): return nil
            case ELOOP: throw .damaged(path: path, reason: "is a symbolic link; state files are never followed through links")
            default: throw .failed(path: path, because: .last)
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = IOFailure.last
            Glibc.close(fd)
            throw .failed(path: path, because: failure)
        }
        return (fd, info)
    }

    /// Whether a regular file of exactly `size` bytes is at `path` (no link followed).
    static func hasSize(_ path: String, _ size: Int) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size == size
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws(StoreError) {
        try DirectorySafety.check(StatePath.parent(of: path))
        if unlink(path) != 0 && errno != ENOENT {
            throw .failed(path: path, because: .last)
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
            throw .failed(path: path, "cannot create directory", because: .last)
        }
    }

    /// Names of the entries in a directory (none when it does not exist), temporary files excluded.
    /// A directory that exists but cannot be read is an error naming it, never an empty list:
    /// decisions (which keys to invalidate, who is enrolled) rest on this.
    static func list(_ directory: String) throws(StoreError) -> [String] {
        guard try DirectorySafety.check(directory) else { return [] }
        guard let stream = opendir(directory) else {
            throw .failed(path: directory, "cannot list", because: .last)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw .failed(path: directory, "cannot list", because: .last) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        Glibc.close(fd)
    }
}
