import FPCore
import FPReaders

/// How an evaluation succeeded.
public enum AuthMethod: String, Sendable, Hashable, Codable {
    case fingerprint
    case passcode
    /// A success within the reuse window was returned without a new scan.
    case reused
}
