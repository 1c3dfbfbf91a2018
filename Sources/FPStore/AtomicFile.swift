import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing state files so that a crash never leaves half a file:
/// write a temporary file (0600), fsync it, rename it over the old one,
/// fsync the directory. Directories the store creates are 0700.
enum AtomicFile {
    /// The file's bytes, or nil when it does not exist.
    static func read(_ path: String) throws(StoreError) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
        defer { Glibc.close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    static func write(_ data: Data, to path: String) throws(StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        try makeDirectories(directory)
        let temporary = directory + "/.\((path as NSString).lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: temporary, reason: String(cString: strerror(errno))) }
        var written = 0
        let failure: String? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                written += count
            }
            return fsync(fd) == 0 ? nil : String(cString: strerror(errno))
        }
        Glibc.close(fd)
        if let failure {
            unlink(temporary)
            throw .io(path: path, reason: failure)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path: path, reason: reason)
        }
        syncDirectory(directory)
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws(StoreError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
        syncDirectory((path as NSString).deletingLastPathComponent)
    }

    /// Creates the directory and any missing parents with mode 0700.
    /// Existing directories keep their mode: the root may be one the user chose.
    static func makeDirectories(_ path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .io(path: path, reason: "exists and is not a directory") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .io(path: path, reason: "cannot create directory: \(String(cString: strerror(errno)))")
        }
    }

    /// Names of the entries in a directory (none when it does not exist), temporary files excluded.
    static func list(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { !$0.hasPrefix(".") }
            .sorted()
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        Glibc.close(fd)
    }
}
