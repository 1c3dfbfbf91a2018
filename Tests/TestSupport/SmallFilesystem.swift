import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A filesystem of the test's own, small enough to fill: tmpfs with `size=`, or ext4 in an
/// image file on a loop device (what a real disk is: blocks allocated on write), mounted on a
/// directory (root only) and unmounted when the value goes. Full-disk tests fill it to the last
/// block instead of hoping that a real disk is full.
public final class SmallFilesystem: Sendable {
    /// Which filesystem.
    public enum Kind: String, CaseIterable, Sendable {
        case tmpfs, ext4
    }

    /// The mount point, mode 0700 (a state directory fpbridge accepts).
    public let path: String
    private let image: String?

    /// Whether this process may mount one: full-disk tests need root (CI runs as root).
    public static var available: Bool { geteuid() == 0 }

    /// Mounts `bytes` of `kind` on `path`, which is created when missing.
    public init(at path: String, bytes: Int, kind: Kind = .tmpfs) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        switch kind {
        case .tmpfs:
            guard mount("tmpfs", path, "tmpfs", 0, "size=\(bytes),mode=0700") == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
            }
            image = nil
        case .ext4:
            // No blocks reserved for root (the tests run as root and must see the disk full).
            let file = path + ".img"
            guard FileManager.default.createFile(atPath: file, contents: nil), truncate(file, off_t(bytes)) == 0 else {
                throw POSIXError(.EIO)
            }
            for command in [["/sbin/mkfs.ext4", "-q", "-F", "-m", "0", file], ["/bin/mount", "-o", "loop", file, path]] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: command[0])
                process.arguments = Array(command.dropFirst())
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else { throw POSIXError(.EIO) }
            }
            chmod(path, 0o700)
            image = file
        }
        self.path = path
    }

    deinit {
        umount2(path, Int32(MNT_DETACH))
        if let image { unlink(image) }
    }

    /// Fills every free block with a filler file, down to the last byte the filesystem takes;
    /// returns the bytes written.
    @discardableResult
    public func fill() throws -> Int {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var total = 0
        let block = [UInt8](repeating: 0xA5, count: 64 * 1024)
        for size in [64 * 1024, 4096, 512, 1] {
            while true {
                let written = block.withUnsafeBytes { write(fd, $0.baseAddress, size) }
                guard written > 0 else { break }
                total += written
            }
        }
        return total
    }

    /// Frees what ``fill()`` took.
    public func free() {
        unlink(path + "/filler")
    }

    /// Bytes the filesystem still has free.
    public var freeBytes: Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return -1 }
        return Int(info.f_bavail) * Int(info.f_bsize)
    }
}
