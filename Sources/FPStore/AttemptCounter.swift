import Foundation

/// Whose failures a counter tracks: a user's (verification) or a reader's
/// (identification, where no user is known yet).
public enum CounterScope: Sendable, Hashable, CustomStringConvertible {
    case user(String)
    case reader(driver: String, deviceID: String)

    public var description: String {
        switch self {
        case .user(let name): "user \(name)"
        case .reader(let driver, let deviceID): "reader \(driver)/\(deviceID)"
        }
    }

    var fileName: String {
        switch self {
        case .user(let name): "user-\(PathComponent.encode(name)).json"
        case .reader(let driver, let deviceID):
            "reader-\(PathComponent.encode(driver))-\(PathComponent.encode(deviceID)).json"
        }
    }
}

/// Consecutive failures and lockout for one scope, biometric and passcode alike.
public struct AttemptCounter: Sendable, Hashable, Codable {
    /// Failed fingerprint matches since the last success or correct passcode.
    public var biometricFailures = 0
    /// True once biometric failures reached the lockout threshold; only a
    /// correct passcode clears it.
    public var biometryLockedOut = false
    /// Wrong passcodes since the last correct one.
    public var passcodeFailures = 0
    /// While in the future, no passcode is even checked.
    public var passcodeLockedUntil: Date?
    /// True when this counter could not be read: it then counts as locked out,
    /// never as "no failures".
    public var damaged = false

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case biometricFailures, biometryLockedOut, passcodeFailures, passcodeLockedUntil
    }
}
