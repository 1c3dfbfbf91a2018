#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Why a read or write of a file failed: the filesystem's errno where it gave one, so that a
/// caller can tell a full disk from a permission problem without reading words.
package struct IOFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// errno, when the failure came from a system call.
    package let errno: Errno?
    /// What went wrong, for people.
    package let reason: String

    package init(errno: Errno) {
        self.errno = errno
        reason = errno.description
    }

    package init(_ reason: String) {
        errno = nil
        self.reason = reason
    }

    /// The errno the last system call left.
    package static var last: IOFailure { IOFailure(errno: .last) }

    package var description: String { reason }
}
