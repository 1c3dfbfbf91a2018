import Foundation
import FPVocabulary

/// Wall-clock time as the database keeps it: milliseconds since 1970. Every time the
/// server reads (challenge and session expiry, rate-limit windows, the audit log) comes
/// from here, so that a test can move it instead of sleeping.
package enum Clock {
    /// The file whose number (milliseconds) is added to the wall clock; nil: none.
    private static let offsetFile = Locked<String?>(nil)

    static func milliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded()) + offset()
    }

    /// For tests (`fpbridge-server --test-clock-offset-file`): from now on, the number in
    /// `path` is added to every reading. Read on each call, so the test moves time by writing it.
    package static func follow(offsetFile path: String) {
        offsetFile.withLock { $0 = path }
    }

    private static func offset() -> Int64 {
        guard let path = offsetFile.withLock({ $0 }) else { return 0 }
        // A test's file: unreadable while being rewritten is read again, never taken as 0.
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
               let value = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return value
            }
            usleep(1000)
        }
        fatalError("--test-clock-offset-file \(path) holds no number")
    }
}
