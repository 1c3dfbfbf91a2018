import Foundation

/// Why an authentication (or any fpbridge operation) did not succeed: a code,
/// a message for people, and when a retry may succeed.
public struct AuthError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: AuthErrorCode
    public let message: String
    /// Seconds after which trying again may succeed (lockouts, a hot reader).
    public let retryAfter: TimeInterval?

    public init(_ code: AuthErrorCode, _ message: String, retryAfter: TimeInterval? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }
}
