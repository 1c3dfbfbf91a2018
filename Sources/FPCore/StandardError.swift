#if canImport(Glibc)
import Glibc
#endif

/// Text for the person at the terminal, written to file descriptor 2 as it is (no
/// buffering, so it is out before a prompt blocks or the process exits).
package enum StandardError {
    /// Writes `text` whole, or as much as file descriptor 2 takes (closed: nothing).
    package static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
