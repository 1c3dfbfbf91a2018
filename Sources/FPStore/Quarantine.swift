import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where repairs put damaged state files: `damaged/` in the state directory,
/// so that a repair never destroys what someone may still want to inspect.
package struct Quarantine: Sendable {
    let directory: StateDirectory

    package init(directory: StateDirectory) {
        self.directory = directory
    }

    /// Moves a state file into quarantine; returns its new path. Call inside the state lock.
    package func move(_ path: String) throws(StoreError) -> String {
        guard path.hasPrefix(directory.path + "/") else {
            throw .io(path: path, reason: "is not inside the state directory \(directory.path)")
        }
        let relative = String(path.dropFirst(directory.path.count + 1)).replacing("/", with: "_")
        let stamp = Int(Date().timeIntervalSince1970)
        let target = directory.file("damaged", "\(stamp)-\(relative)")
        try AtomicFile.makeDirectories(directory.file("damaged"))
        guard rename(path, target) == 0 else {
            throw .io(path: path, reason: "cannot move it to \(target): \(String(cString: strerror(errno)))")
        }
        return target
    }
}
