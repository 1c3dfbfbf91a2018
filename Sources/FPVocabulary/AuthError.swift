import FoundationEssentials

/// Why an authentication (or any fpbridge operation) did not succeed: a code,
/// a message for people, and when a retry may succeed.
public struct AuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with Apple's number where Apple has one.
    public let code: AuthErrorCode
    /// The description for people; it names the file, reader or user concerned.
    public let message: String
    /// Seconds after which trying again may succeed (lockouts, a hot reader).
    public let retryAfter: TimeInterval?
    /// The reader's own error when the reader failed (nil otherwise): which one, where
    /// ``code`` groups several.
    public let readerFault: ReaderFault?

    /// An error with a code, a description, optionally when a retry may succeed, and the
    /// reader's own error behind it.
    public init(_ code: AuthErrorCode, _ message: String, retryAfter: TimeInterval? = nil, readerFault: ReaderFault? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.readerFault = readerFault
    }

    /// The description for people.
    public var description: String { message }
}
