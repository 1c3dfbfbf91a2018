import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The folders of a state directory, each checked as `DirectorySafety` checks it but
/// reported instead of thrown, so that a repair can find and move aside a folder that is not
/// a directory, belongs to someone else, or is open to others. Nothing in such a folder is
/// used until then: others could have planted what it holds.
package struct StateFolders: Sendable {
    /// Which part of the state a folder holds, for what a repair must do when it is lost.
    package enum Area: String, Sendable {
        case counters, passcodes, prints, keys, service
    }

    /// A folder that cannot be used, and why.
    package struct Problem: Sendable, Hashable {
        package let path: String
        package let area: Area
        /// The user whose folder it is (`prints/USER/…`, `keys/USER`), nil for a top folder.
        package let user: String?
        package let reason: String
    }

    let directory: StateDirectory

    package init(directory: StateDirectory) {
        self.directory = directory
    }

    /// Every unusable folder, top folders first; below an unusable folder nothing is looked at.
    /// - Throws: when the state directory itself is unsafe or a folder cannot be listed.
    package func problems() throws(StoreError) -> [Problem] {
        try directory.checkRoot()
        var problems: [Problem] = []
        for area in [Area.counters, .passcodes, .prints, .keys, .service] {
            let path = directory.file(area.rawValue)
            if let reason = Self.problem(path) {
                problems.append(Problem(path: path, area: area, user: nil, reason: reason))
                continue
            }
            // Per-user folders, down to the prints' reader folders.
            guard area == .prints || area == .keys else { continue }
            for user in try AtomicFile.list(path) {
                problems += try below(path + "/" + user, area: area, user: user, depth: area == .prints ? 3 : 1)
            }
        }
        return problems
    }

    private func below(_ path: String, area: Area, user: String, depth: Int) throws(StoreError) -> [Problem] {
        if let reason = Self.problem(path) { return [Problem(path: path, area: area, user: user, reason: reason)] }
        guard depth > 1 else { return [] }
        var problems: [Problem] = []
        // Every entry above the reader folders must be a folder (a file there is damage too).
        for name in try AtomicFile.list(path) {
            problems += try below(path + "/" + name, area: area, user: user, depth: depth - 1)
        }
        return problems
    }

    /// Why the folder at `path` cannot be used, or nil when it is fine or missing.
    static func problem(_ path: String) -> String? {
        do {
            try DirectorySafety.check(path)
            return nil
        } catch {
            switch error {
            case .unsafeDirectory(_, let reason, _): return "it " + reason
            default: return error.description
            }
        }
    }
}
