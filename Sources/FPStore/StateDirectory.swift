import FPCore
import FoundationEssentials
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Where fpbridge keeps its state: `--state-dir`, else `FPBRIDGE_STATE_DIR`,
/// else `$XDG_STATE_HOME/fpbridge`, else `~/.local/state/fpbridge`.
public struct StateDirectory: Sendable, Hashable, CustomStringConvertible {
    /// The directory's absolute or relative path.
    public let path: String

    /// A state directory at `path`; nothing is created until something is written.
    public init(path: String) {
        self.path = path
    }

    /// Picks the directory by the rule above.
    public static func resolve(explicit: String?, environment: [String: String] = ProcessEnvironment.values("FPBRIDGE_STATE_DIR", "XDG_STATE_HOME", "HOME")) -> StateDirectory {
        if let explicit, !explicit.isEmpty { return StateDirectory(path: explicit) }
        if let fromEnvironment = environment["FPBRIDGE_STATE_DIR"], !fromEnvironment.isEmpty {
            return StateDirectory(path: fromEnvironment)
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return StateDirectory(path: xdg + "/fpbridge")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? accountHome()
        return StateDirectory(path: home + "/.local/state/fpbridge")
    }

    /// The home directory of the user this process runs as, from the user database (not `HOME`,
    /// which a privileged process ignores).
    private static func accountHome() -> String {
        if let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return FilePath(FileManager.default.homeDirectoryForCurrentUser.path(percentEncoded: false)).string
    }

    /// The path.
    public var description: String { path }

    /// Throws when the state directory exists but others could tamper with it
    /// (see ``DirectorySafety``); every store operation starts here.
    func checkRoot() throws(StoreError) {
        try DirectorySafety.check(path)
    }

    /// A path inside the state directory.
    public func file(_ components: String...) -> String {
        ([path] + components).joined(separator: "/")
    }
}
