/// Why the store could not read or write its state.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A state file exists but cannot be understood. It is left in place untouched.
    case damaged(path: String, reason: String)
    /// The file system refused an operation.
    case io(path: String, reason: String)
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
        case .io(let path, let reason): "\(path): \(reason)"
        case .unsafeDirectory(let path, let reason, let fix):
            "unsafe state directory \(path): it \(reason); nothing in it was used (fix: \(fix))"
        case .invalidUserName(let name):
            "invalid user name '\(name)': use letters, digits, '.', '_' and '-' (at most 64, not starting with '.')"
        case .invalidKeyLabel(let label):
            "invalid key label '\(label)': use letters, digits, '.', '_' and '-' (at most 64, not starting with '.')"
        }
    }
}
