import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import FPCore

/// State directories must belong to the user running fpbridge and be closed to
/// everyone else (0700): a directory others can write lets them swap a counter
/// or a print; one others can read shows who is enrolled.
enum DirectorySafety {
    /// Throws when the existing directory is unsafe or cannot be looked at; a missing one is
    /// fine (it will be made 0700). Returns whether it exists.
    @discardableResult
    static func check(_ path: String) throws(StoreError) -> Bool {
        var info = stat()
        // Only a missing directory is fine; one that cannot be looked at is not "nothing there".
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw .failed(path: path, because: .last)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .unsafeDirectory(path: path, reason: "is not a directory (a symbolic link is never followed)", fix: "remove it")
        }
        guard info.st_uid == geteuid() else {
            let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
            throw .unsafeDirectory(path: path, reason: "belongs to \(owner), not to the user running fpbridge",
                                   fix: "use a state directory of your own (FPBRIDGE_STATE_DIR), or chown it")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw .unsafeDirectory(path: path, reason: "is open to other users (mode \(String(info.st_mode & 0o777, radix: 8)))",
                                   fix: "chmod 700 '\(path)'")
        }
        return true
    }
}
