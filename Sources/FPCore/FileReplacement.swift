#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Replacing a file whole or not at all, the one way every layer does it: a new temporary
/// file beside it, written out, flushed to the disk, renamed over it.
package enum FileReplacement {
    /// Replaces `path` with `bytes` through a temporary file named by `temporaryName` (asked
    /// again while the name is taken, so that a file left by a killed run never blocks a
    /// write), created with `mode` less the umask and never through a symbolic link. On failure
    /// the temporary file is gone and `path` is as it was; the result then says why.
    package static func replace(_ path: String, with bytes: UnsafeRawBufferPointer, mode: mode_t,
                                temporaryName: () -> String) -> IOFailure? {
        var temporary = "", fd: Int32 = -1
        repeat {
            temporary = temporaryName()
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        } while fd < 0 && errno == EEXIST
        guard fd >= 0 else { return .last }
        // On the disk before the rename: a crash after it never leaves an empty file in its place.
        if let failure = FileDescriptorWrite.all(bytes, to: fd) ?? (fsync(fd) == 0 ? nil : .last) {
            close(fd)
            unlink(temporary)
            return failure
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else {
            let failure = IOFailure.last
            unlink(temporary)
            return failure
        }
        return nil
    }

}
