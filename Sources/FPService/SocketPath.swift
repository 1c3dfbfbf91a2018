import Foundation

/// Makes the socket's place ready: its directory exists, and a socket left by a service
/// that is gone is removed; a live service or any other file there is an error.
enum SocketPath {
    static func prepare(_ path: String) throws {
        guard path.hasPrefix("/"), path.utf8.count < 108 else {
            throw ServiceStartError("the socket path must be absolute and shorter than 108 bytes: \(path)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ServiceStartError("\(path) exists and is not a socket; refusing to replace it")
        }
        if answers(path) { throw ServiceStartError("another fpbridged already listens on \(path)") }
        unlink(path)
    }

    private static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}

/// Why the service cannot start; said on stderr with exit status 3.
package struct ServiceStartError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
