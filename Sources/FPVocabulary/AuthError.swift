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
    /// What lies behind ``code`` where it groups several causes a program may act on (nil
    /// when the code says it all, or the cause is not one of ``AuthErrorCause``'s).
    public let cause: AuthErrorCause?

    /// An error with a code, a description, optionally when a retry may succeed, the reader's
    /// own error behind it, and its cause.
    public init(_ code: AuthErrorCode, _ message: String, retryAfter: TimeInterval? = nil, readerFault: ReaderFault? = nil,
                cause: AuthErrorCause? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.readerFault = readerFault
        self.cause = cause
    }

    /// The description for people.
    public var description: String { message }
}
