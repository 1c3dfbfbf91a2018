import CProcessSecurity
import FPAuthentication
import FPReaders
import Foundation
import SystemPackage

/// A fake reader's script named by a client in test mode, read with the client's rights.
///
/// The service may run as root; a path it opened with its own rights would let any client
/// read any file (`fake:/etc/shadow`, whose first line came back quoted in the error). So the
/// file is opened as the client (its uid and gid, on this thread only: see `fpb_open_as`),
/// never from procfs, and a service that cannot take those rights refuses instead of reading.
enum ClientScript {
    /// - Throws: ``ReaderError/invalidScript(_:)``, as a script the service reads itself does
    ///   (an operation that needs no reader then goes on without one).
    static func load(_ path: String, caller: Caller) throws(ReaderError) -> FakeScript {
        // A client with the service's own rights (or root's) reads nothing it could not itself.
        if caller.credentials.uid == geteuid() || caller.credentials.uid == 0 {
            return try FakeScript.load(path: path)
        }
        let fd = path.withCString { fpb_open_as($0, caller.credentials.uid, caller.credentials.gid) }
        guard fd >= 0 else {
            throw .invalidScript("cannot read script file '\(path)' as \(caller.user): \(Errno(rawValue: -fd).description)")
        }
        let file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .invalidScript("script file '\(path)' is not a regular file")
        }
        guard info.st_size <= FakeScript.maximumSize,
              let data = try? file.read(upToCount: FakeScript.maximumSize + 1), data.count <= FakeScript.maximumSize else {
            throw .invalidScript("script file '\(path)' is over \(FakeScript.maximumSize / 1024) KiB or cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidScript("script file '\(path)' is not UTF-8 text")
        }
        do { return try FakeScript.parse(text) } catch { throw .invalidScript("\(path): \(error.message)") }
    }
}
