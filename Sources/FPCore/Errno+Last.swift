#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

// `import Glibc` stays in the files that make a C call (issue 41 §4 counted 52): swift-system
// covers file descriptors and `Errno`, not the user and group databases, `flock`, sockets'
// peer credentials, `posix_spawn`, signals or libfprint's GLib types. What was wrong with them
// is gone: no `strerror` text (every failure is an `Errno`), no error hidden or dropped.
extension Errno {
    /// The calling thread's `errno` now, as swift-system's typed error: every system call's
    /// failure is told through `Errno` (its `description` is the C library's words), so that
    /// code compares causes (`.noSuchFileOrDirectory`) instead of reading text.
    package static var last: Errno { Errno(rawValue: errno) }
}
