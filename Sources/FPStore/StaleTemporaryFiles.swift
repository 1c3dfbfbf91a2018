import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Temporary files that a process killed mid-write left behind (one may hold a
/// passcode hash). Removed under the state lock before the next write to the
/// same directory.
enum StaleTemporaryFiles {
    /// Between the target's name and the writer's PID: `.NAME.tmp-PID-RANDOM`.
    static let marker = ".tmp-"
    /// No write takes this long: older temporary files are stale whoever wrote them.
    static let maximumAge: TimeInterval = 600

    static func remove(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(".") && name.contains(marker) {
            let path = directory + "/" + name
            if isStale(name: name, path: path) { unlink(path) }
        }
    }

    static func isStale(name: String, path: String) -> Bool {
        guard let range = name.ranges(of: marker).last,
              let pid = name[range.upperBound...].split(separator: "-").first.flatMap({ Int32($0) }), pid > 0
        else { return true }
        var info = stat()
        if lstat(path, &info) == 0, Date().timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > maximumAge { return true }
        if pid == getpid() { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
