#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension Errno {
    /// The calling thread's `errno` now, as swift-system's typed error: every system call's
    /// failure is told through `Errno` (its `description` is the C library's words), so that
    /// code compares causes (`.noSuchFileOrDirectory`) instead of reading text.
    package static var last: Errno { Errno(rawValue: errno) }
}
