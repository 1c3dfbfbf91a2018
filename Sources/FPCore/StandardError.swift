#if canImport(Glibc)
import Glibc
#endif

/// Text for the person at the terminal, written to file descriptor 2 as it is (no
/// buffering, so it is out before a prompt blocks or the process exits).
package enum StandardError {
    /// Writes `text` whole, or as much as file descriptor 2 takes (closed: nothing).
    package static func write(_ text: String) {
        var text = text
        _ = text.withUTF8 { FileDescriptorWrite.all(UnsafeRawBufferPointer($0), to: 2) }
    }
}
