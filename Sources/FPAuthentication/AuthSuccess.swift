import FPCore
import FPReaders

/// The result of a successful evaluation.
public struct AuthSuccess: Sendable, Hashable {
    /// How the evaluation succeeded.
    public let method: AuthMethod
    /// The user authenticated (for identification: the user found).
    public let user: String
    /// The matched finger, when a fingerprint decided.
    public let finger: Finger?
}
