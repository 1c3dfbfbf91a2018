import Foundation

/// `POST /v1/invitations`: a one-time binding code for a new device of the account, made with a
/// finger on a bound device. The new device binds with it (`bindingCode`) as with an operator's.
public struct Invitation: Codable, Sendable, Hashable {
    /// The code: shown once, to be typed on the new device; the server keeps only its SHA-256.
    public var code: String
    /// Whose account it binds a device to.
    public var username: String
    /// Milliseconds since 1970 after which the code is refused.
    public var expiresAt: Int64

    /// An invitation as the server made it.
    public init(code: String, username: String, expiresAt: Int64) {
        self.code = code
        self.username = username
        self.expiresAt = expiresAt
    }
}
