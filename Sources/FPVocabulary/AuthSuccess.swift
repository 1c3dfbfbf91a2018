/// The result of a successful evaluation.
public struct AuthSuccess: Sendable, Hashable {
    /// How the evaluation succeeded.
    public let method: AuthMethod
    /// The user authenticated (for identification: the user found).
    public let user: String
    /// The matched finger, when a fingerprint decided.
    public let finger: Finger?

    /// A success as an engine reports it (or as a service reported it to its client).
    public init(method: AuthMethod, user: String, finger: Finger?) {
        self.method = method
        self.user = user
        self.finger = finger
    }
}
