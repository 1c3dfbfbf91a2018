import Foundation

/// A fresh directory under /tmp, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "fpbridge-test-" + UUID().uuidString.prefix(8)
        // 0700, as fpbridge demands of every state directory.
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A 0700 directory inside this one (a state directory fpbridge accepts).
    @discardableResult
    public func privateDirectory(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return file(name)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// A short Unix socket path (libfprint silently truncates paths over 107 bytes).
    public static func socketPath() -> String {
        "/tmp/fpb-\(UUID().uuidString.prefix(8)).sock"
    }
}
