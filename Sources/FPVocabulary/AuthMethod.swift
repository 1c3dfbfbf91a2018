/// How an evaluation succeeded.
public enum AuthMethod: String, Sendable, Hashable, Codable {
    /// A finger matched.
    case fingerprint
    /// The passcode was entered.
    case passcode
    /// A success within the reuse window was returned without a new scan.
    case reused
}
