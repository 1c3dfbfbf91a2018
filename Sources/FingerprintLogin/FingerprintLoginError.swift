import FPAccountAPI
import FPVocabulary

/// Why a login, a binding or a payment did not happen.
public enum FingerprintLoginError: Error, Sendable, CustomStringConvertible {
    /// The server refused (its code, message, attempts left).
    case server(AccountError)
    /// The device refused: no match, cancelled, locked out, or the key was invalidated by a
    /// change of the enrolled prints (`AuthErrorCode.keyInvalidated`).
    case device(AuthError)
    /// This device has no key for the user at this server: bind it first.
    case notBound(String)
    /// The server could not be reached or answered something unreadable.
    case transport(String)

    /// True when the only way on is the password and binding the device again: the key was
    /// invalidated by a new or removed finger, or the server froze, blocked or revoked it.
    public var needsRebinding: Bool {
        switch self {
        case .server(let error): error.code.needsRebinding
        case .device(let error): error.code == .keyInvalidated
        case .notBound: true
        case .transport: false
        }
    }

    public var description: String {
        switch self {
        case .server(let error): "the server refused (\(error.code.rawValue)): \(error.message)"
        case .device(let error): "\(error.code.name) (\(error.code.rawValue)): \(error.message)"
        case .notBound(let message): message
        case .transport(let message): message
        }
    }
}
