import Foundation
import FPVocabulary

/// Wall-clock time as the database keeps it: milliseconds since 1970. Every time the
/// server reads (challenge and session expiry, rate-limit windows, the audit log) comes
/// from here, so that a test can move it instead of sleeping.
package enum Clock {
    /// The test's offset file, when the server follows one (nil: the wall clock alone).
    private static let offsetFile = Locked<OffsetFile?>(nil)

    static func milliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded()) + (offsetFile.withLock { $0?.current() } ?? 0)
    }

    /// For tests (`fpbridge-server --test-clock-offset-file`): from now on, the number in
    /// `path` (milliseconds) is added to every reading; the test moves time by replacing the file.
    /// - Throws: when `path` does not hold a number now, so that the server refuses to start
    ///   rather than run on a clock it cannot read.
    package static func follow(offsetFile path: String) throws(OffsetFileError) {
        let file = try OffsetFile(path: path)
        offsetFile.withLock { $0 = file }
    }
}

/// `--test-clock-offset-file` names a file that holds no number of milliseconds.
package struct OffsetFileError: Error, CustomStringConvertible {
    package let description: String
}

/// A test's clock offset: read again only when the file was replaced or changed (its inode,
/// size or modification time), so a reading costs a `stat`, not a read. A file that cannot be
/// read as a number keeps the last offset read: time never jumps back to the wall clock.
private struct OffsetFile {
    let path: String
    private var version: [Int]
    private var value: Int64

    init(path: String) throws(OffsetFileError) {
        self.path = path
        guard let version = Self.version(path), let value = Self.read(path) else {
            throw OffsetFileError(description: "--test-clock-offset-file \(path) holds no number of milliseconds")
        }
        self.version = version
        self.value = value
    }

    mutating func current() -> Int64 {
        guard let now = Self.version(path), now != version, let read = Self.read(path) else { return value }
        version = now
        value = read
        return value
    }

    private static func version(_ path: String) -> [Int]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }

    private static func read(_ path: String) -> Int64? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
