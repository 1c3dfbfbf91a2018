import FPCore
import SystemPackage

/// Why the store could not read or write its state.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A state file exists but cannot be understood. It is left in place untouched.
    case damaged(path: String, reason: String)
    /// The file system refused an operation; `errno` when a system call said why.
    case io(path: String, reason: String, errno: Errno? = nil)
    /// A user name that cannot name a directory safely.
    case invalidUserName(String)
    /// A key label that cannot name a file safely.
    case invalidKeyLabel(String)
    /// A state directory others could tamper with or read; nothing in it is used.
    case unsafeDirectory(path: String, reason: String, fix: String)

    /// What went wrong, naming the file or directory.
    public var description: String {
        switch self {
        case .damaged(let path, let reason):
            "damaged state file \(path): \(reason) (left as it is until the state is repaired, which moves it aside)"
        case .io(let path, let reason, _): "\(path): \(reason)"
        case .unsafeDirectory(let path, let reason, let fix):
            "unsafe state directory \(path): it \(reason); nothing in it was used (fix: \(fix))"
        case .invalidUserName(let name):
            "invalid user name '\(name)': use letters, digits, '.', '_' and '-' (at most 64, not starting with '.')"
        case .invalidKeyLabel(let label):
            "invalid key label '\(label)': use letters, digits, '.', '_' and '-' (at most 64, not starting with '.')"
        }
    }

    /// A filesystem failure of `path`, with what it said (`what` before it, when given).
    package static func failed(path: String, _ what: String? = nil, because failure: IOFailure) -> StoreError {
        .io(path: path, reason: what.map { "\($0): \(failure.reason)" } ?? failure.reason, errno: failure.errno)
    }

    /// What kind of filesystem failure this is, when the filesystem said: a caller's advice
    /// differs for a full disk and for a directory this user may not write.
    public var fileSystemFailure: FileSystemFailure? {
        guard case .io(_, _, let errno?) = self else { return nil }
        switch errno {
        case .noSpace, .diskQuotaExceeded: return .full
        case .permissionDenied, .notPermitted, .readOnlyFileSystem: return .notWritable
        default: return .other
        }
    }
}

/// The kinds of filesystem failure whose advice differs (``StoreError/fileSystemFailure``).
public enum FileSystemFailure: Sendable, Hashable {
    /// No space left on the filesystem, or the user's quota is used up.
    case full
    /// This user may not write there, or the filesystem is read-only.
    case notWritable
    /// Anything else the filesystem said.
    case other
}
