import Foundation

/// A fresh directory under /tmp, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "fpbridge-test-" + UUID().uuidString.prefix(8)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// A short Unix socket path (libfprint silently truncates paths over 107 bytes).
    public static func socketPath() -> String {
        "/tmp/fpb-\(UUID().uuidString.prefix(8)).sock"
    }
}
