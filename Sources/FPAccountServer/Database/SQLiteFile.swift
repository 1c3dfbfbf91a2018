import Foundation
import SystemPackage
import FPCore

/// The SQLite file made by the server itself, 0600 from its first instant whatever the umask,
/// before GRDB opens it: SQLite would create it 0644 less the umask, and a chmod afterwards
/// leaves a moment in which another user can open it and keep the descriptor. SQLite then
/// gives the -wal and -shm files the main file's mode.
struct SQLiteFile {
    /// What the file is (device and inode), to check that GRDB opened this very file.
    let device: UInt64
    let inode: UInt64

    /// Creates `path` 0600 or opens the file already there (tightened to 0600), refusing a
    /// symbolic link (SQLite would follow it to a file the operator did not name) and
    /// anything but a regular file.
    static func prepare(_ path: String) throws -> SQLiteFile {
        // O_NOFOLLOW: a link at the last component fails with ELOOP. O_NONBLOCK: a FIFO
        // there does not hang the start (it is refused below).
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ELOOP: throw DatabaseFailure(description: "the SQLite database \(path) is a symbolic link; give the path of the file itself")
            case EISDIR: throw DatabaseFailure(description: "the SQLite database \(path) is a directory, not a file")
            default: throw DatabaseFailure(description: "cannot create the SQLite database \(path): \(Errno(rawValue: code).description)")
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw DatabaseFailure(description: "cannot read what the SQLite database \(path) is: \(Errno.last.description)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw DatabaseFailure(description: "the SQLite database \(path) is not a regular file")
        }
        // A file made before (or by hand) with a wider mode is the server's alone from now on.
        if status.st_mode & 0o777 != 0o600, fchmod(descriptor, 0o600) != 0 {
            throw DatabaseFailure(description: "cannot make the SQLite database \(path) 0600: \(Errno.last.description)")
        }
        return SQLiteFile(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether `path` still names this file, and not a link or another file put in its place
    /// between `prepare` and SQLite's own open.
    func isStill(at path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFREG && UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
