#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Writing all of a buffer to a file descriptor, whatever part each `write` takes.
package enum FileDescriptorWrite {
    /// Writes every byte of `bytes` to `fd`, again after a signal interrupts; nil when done,
    /// else errno (or why nothing more was taken).
    package static func all(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> IOFailure? {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? .last : IOFailure("no byte was written") }
            offset += written
        }
        return nil
    }
}
