import FoundationEssentials

/// Whose failures a counter tracks: a user's (verification) or a reader's
/// (identification, where no user is known yet).
public enum CounterScope: Sendable, Hashable, CustomStringConvertible {
    /// One user's failures, counted across every reader and process.
    case user(String)
    /// One reader's identification failures, counted for everyone who tries it.
    case reader(driver: String, deviceID: String)

    /// The scope as messages name it.
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
///
/// The rules that read and change these numbers live in the engine
/// (`LockoutRules` in FPAuthentication); the store only keeps them.
public struct AttemptCounter: Sendable, Hashable, Codable {
    /// The largest count a counter file may hold; anything above is damage, not history.
    public static let maximumCount = 1_000_000

    /// Failed fingerprint matches since the last success or correct passcode.
    public var biometricFailures = 0
    /// True once biometry is locked out until a correct passcode.
    public var biometryLockedOut = false
    /// A timed lockout (identification): no scan before this moment.
    public var biometryLockedUntil: Date?
    /// When the current run of failures first locked biometry out (timed or not).
    /// A reader's identification lockout yields only to the passcode of a user
    /// who was enrolled on that reader before this moment.
    public var lockoutBeganAt: Date?
    /// Wrong passcodes since the last correct one.
    public var passcodeFailures = 0
    /// While in the future, no passcode is even checked.
    public var passcodeLockedUntil: Date?
    /// True when this counter could not be read: it then counts as locked out on
    /// every path, never as "no failures", until an administrator repairs it.
    public var damaged = false

    /// A counter with no failures and no lockout.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case biometricFailures, biometryLockedOut, biometryLockedUntil, lockoutBeganAt, passcodeFailures, passcodeLockedUntil
    }

    /// Reads a counter file, range-checking every number.
    /// - Throws: `DecodingError` for a missing key or a value out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        biometricFailures = try Self.count(container, .biometricFailures)
        biometryLockedOut = try container.decode(Bool.self, forKey: .biometryLockedOut)
        biometryLockedUntil = try Self.deadline(container, .biometryLockedUntil)
        lockoutBeganAt = try container.decodeIfPresent(Date.self, forKey: .lockoutBeganAt)
        passcodeFailures = try Self.count(container, .passcodeFailures)
        passcodeLockedUntil = try Self.deadline(container, .passcodeLockedUntil)
    }

    /// No wait is longer than a year; a deadline further out is damage, not a lockout.
    private static func deadline(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        guard let date = try container.decodeIfPresent(Date.self, forKey: key) else { return nil }
        guard date.timeIntervalSinceNow <= 86_400 * 366 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.stringValue) is more than a year away")
        }
        return date
    }

    /// A count read from a file: negative or absurd values are damage (a negative
    /// count would otherwise grant a million attempts).
    private static func count(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Int {
        let value = try container.decode(Int.self, forKey: key)
        guard (0...maximumCount).contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(key.stringValue) is \(value), outside 0...\(maximumCount)")
        }
        return value
    }

    /// The counter a damaged file stands for: locked out, never "no failures".
    public static var damagedPlaceholder: AttemptCounter {
        var counter = AttemptCounter()
        counter.damaged = true
        counter.biometryLockedOut = true
        return counter
    }
}
