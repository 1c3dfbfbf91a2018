import Glibc

/// Writes a file whole or not at all: a temporary file beside it, renamed over it.
enum ReplacingWrite {
    /// Writes `bytes` to `path` (mode 0644 less the umask); nil when done, else the reason.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        // A random name: one left behind by a killed run (or a run with the same pid, as
        // PID 1 in every container run) never blocks the next write.
        var temporary = "", fd: Int32 = -1
        repeat {
            temporary = path + ".partial-" + String(UInt64.random(in: .min ... .max), radix: 36)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        } while fd < 0 && errno == EEXIST
        guard fd >= 0 else { return reason() }
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return failed(fd, temporary) }
            remaining = remaining.dropFirst(written)
        }
        // On the disk before the rename: a crash after it never leaves an empty file in its place.
        guard fsync(fd) == 0 else { return failed(fd, temporary) }
        guard close(fd) == 0 else { let why = reason(); unlink(temporary); return why }
        guard rename(temporary, path) == 0 else { let why = reason(); unlink(temporary); return why }
        return nil
    }

    private static func failed(_ fd: Int32, _ temporary: String) -> String {
        let why = reason()
        close(fd)
        unlink(temporary)
        return why
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
