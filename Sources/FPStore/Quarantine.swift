import FPCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Where repairs put damaged state files: `damaged/` in the state directory,
/// so that a repair never destroys what someone may still want to inspect.
package struct Quarantine: Sendable {
    let directory: StateDirectory

    package init(directory: StateDirectory) {
        self.directory = directory
    }

    /// Puts a replacement in place of a damaged file or folder in one step, then moves the
    /// damaged one into quarantine; returns its new path. Call inside the state lock.
    ///
    /// `build` makes the replacement at the temporary path it is given (a file or a folder).
    /// The two are swapped atomically, so at no moment is there nothing at `path`: a lost
    /// counters folder must never read as "no failures", not even while it is being repaired.
    /// If anything fails before the swap, the temporary replacement is removed and `path` is
    /// as it was.
    package func replace(_ path: String, build: (String) throws(StoreError) -> Void) throws(StoreError) -> String {
        let temporary = StatePath.parent(of: path) + "/.\(StatePath.name(of: path)).repair-\(getpid())-\(UInt32.random(in: .min ... .max))"
        do {
            try build(temporary)
        } catch {
            removeTree(temporary)
            throw error
        }
        guard PathExchange.swap(temporary, path) == 0 else {
            let failure = IOFailure.last
            removeTree(temporary)
            throw .failed(path: path, "cannot put the repaired state in its place", because: failure)
        }
        return try move(temporary, as: path)
    }

    /// Removes a temporary file or folder tree the store made (never follows links).
    private func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Moves a state file into quarantine; returns its new path. Call inside the state lock.
    package func move(_ path: String) throws(StoreError) -> String {
        try move(path, as: path)
    }

    /// Moves what is at `path` into quarantine under the name `name` would get.
    private func move(_ path: String, as name: String) throws(StoreError) -> String {
        guard name.hasPrefix(directory.path + "/") else {
            throw .io(path: name, reason: "is not inside the state directory \(directory.path)")
        }
        let relative = String(name.dropFirst(directory.path.count + 1)).replacing("/", with: "_")
        let stamp = Int(Date().timeIntervalSince1970)
        let target = directory.file("damaged", "\(stamp)-\(relative)")
        try AtomicFile.makeDirectories(directory.file("damaged"))
        guard rename(path, target) == 0 else {
            throw .failed(path: path, "cannot move it to \(target)", because: .last)
        }
        return target
    }
}
