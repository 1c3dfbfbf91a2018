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
    /// A timed lockout (identification): no scan before this deadline.
    public var biometryLockedUntil: LockoutDeadline?
    /// When the current run of failures first locked biometry out (timed or not), on the wall
    /// clock: shown to people, and the ordering rule for lockouts from before ``lockoutEpoch``.
    public var lockoutBeganAt: Date?
    /// Lockouts begun for this scope so far: a number that only goes up. A print records the
    /// reader's epoch when it is saved, so "enrolled before this lockout began" needs no clock.
    public var epoch = 0
    /// The ``epoch`` at which the current lockout began; nil when none has (or it began before
    /// epochs were kept, and ``lockoutBeganAt`` orders it).
    public var lockoutEpoch: Int?
    /// A reader's failed identifications of the last hour or so, decaying (issue 50): a
    /// success or a correct PIN never lowers it, so touches a guesser makes between passers-by
    /// still add up. `LockoutRules` (FPAuthentication) reads and raises it; it is at its value
    /// at ``strangerTouchesAt``.
    public var strangerTouches: Double = 0
    /// When ``strangerTouches`` was last raised, on both clocks.
    public var strangerTouchesAt: LockoutDeadline?
    /// Wrong passcodes since the last correct one.
    public var passcodeFailures = 0
    /// While this deadline is ahead, no passcode is even checked.
    public var passcodeLockedUntil: LockoutDeadline?
    /// True when this counter's file is damaged (does not parse, out of range, not a regular
    /// file): it then counts as locked out on every path, never as "no failures", until an
    /// administrator repairs it.
    public var damaged = false
    /// Why this counter's file could not be read when that is not damage (no permission, too
    /// many open files, an I/O error): locked out on every path as damage is, and reported
    /// with this cause, since a repair would not help.
    public var unreadable: String?

    /// Whether the counter cannot be used, damaged or unreadable: every rule treats it as locked
    /// out, and it is never written back as read.
    public var unusable: Bool { damaged || unreadable != nil }

    /// What is wrong with an ``unusable`` counter's file at `path`, for messages.
    public func problem(at path: String) -> String {
        if let unreadable { return "the attempt counter \(path) cannot be read (\(unreadable))" }
        return "the attempt counter \(path) is damaged"
    }

    /// A counter with no failures and no lockout.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case biometricFailures, biometryLockedOut, biometryLockedUntil, biometryLockedUntilUptime, lockoutBeganAt
        case epoch, lockoutEpoch, passcodeFailures, passcodeLockedUntil, passcodeLockedUntilUptime, bootID
        case strangerTouches = "stranger"
    }

    /// The largest epoch a file may hold; anything above is damage, not history.
    public static let maximumEpoch = 1 << 50

    /// Reads a counter file, range-checking every number. A deadline more than a year ahead
    /// is damage; within the boot that set it, that is judged on the boot's clock, so a wall
    /// clock set back does not turn a lockout into damage.
    /// - Throws: `DecodingError` for a missing key or a value out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        biometricFailures = try Self.count(container, .biometricFailures, maximum: Self.maximumCount)
        biometryLockedOut = try container.decode(Bool.self, forKey: .biometryLockedOut)
        lockoutBeganAt = try container.decodeIfPresent(Date.self, forKey: .lockoutBeganAt)
        epoch = container.contains(.epoch) ? try Self.count(container, .epoch, maximum: Self.maximumEpoch) : 0
        lockoutEpoch = container.contains(.lockoutEpoch) ? try Self.count(container, .lockoutEpoch, maximum: Self.maximumEpoch) : nil
        passcodeFailures = try Self.count(container, .passcodeFailures, maximum: Self.maximumCount)
        let bootID = try container.decodeIfPresent(String.self, forKey: .bootID)
        biometryLockedUntil = try Self.deadline(container, .biometryLockedUntil, .biometryLockedUntilUptime, bootID: bootID)
        passcodeLockedUntil = try Self.deadline(container, .passcodeLockedUntil, .passcodeLockedUntilUptime, bootID: bootID)
        if let text = try container.decodeIfPresent(String.self, forKey: .strangerTouches) {
            guard let (touches, at) = Self.strangerTouches(text, bootID: bootID) else {
                throw DecodingError.dataCorruptedError(forKey: .strangerTouches, in: container,
                                                       debugDescription: "stranger is '\(text.prefix(60))', not 'COUNT WALL UPTIME' with COUNT 0...\(Self.maximumCount)")
            }
            (strangerTouches, strangerTouchesAt) = (touches, at)
        }
    }

    /// Writes the counter; a deadline's boot-clock time only for the boot running now (one
    /// set in an earlier boot is judged on the wall clock, as after any reboot).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let boot = LockoutClock.thisBoot
        try container.encode(biometricFailures, forKey: .biometricFailures)
        try container.encode(biometryLockedOut, forKey: .biometryLockedOut)
        try container.encodeIfPresent(lockoutBeganAt, forKey: .lockoutBeganAt)
        if epoch != 0 { try container.encode(epoch, forKey: .epoch) }
        try container.encodeIfPresent(lockoutEpoch, forKey: .lockoutEpoch)
        try container.encode(passcodeFailures, forKey: .passcodeFailures)
        var bootClockUsed = false
        for (deadline, wallKey, uptimeKey) in [(biometryLockedUntil, CodingKeys.biometryLockedUntil, CodingKeys.biometryLockedUntilUptime),
                                               (passcodeLockedUntil, .passcodeLockedUntil, .passcodeLockedUntilUptime)] {
            guard let deadline else { continue }
            try container.encode(deadline.wall, forKey: wallKey)
            if let uptime = deadline.uptime, boot != nil, deadline.bootID == boot {
                try container.encode(uptime, forKey: uptimeKey)
                bootClockUsed = true
            }
        }
        // A reader's count, in one short field: the file's JSON must stay within its first 512
        // bytes. Only a reader's counter has one, and a reader's never has the passcode's
        // deadline (passcodes are per user), so both never take their room in one file.
        if strangerTouches > 0, passcodeLockedUntil == nil, let at = strangerTouchesAt {
            let onBootClock = at.uptime != nil && boot != nil && at.bootID == boot
            try container.encode(Self.strangerText(strangerTouches, at, onBootClock: onBootClock), forKey: .strangerTouches)
            bootClockUsed = bootClockUsed || onBootClock
        }
        if bootClockUsed { try container.encode(boot, forKey: .bootID) }
    }

    /// `COUNT WALL UPTIME`: the count, the moment on the wall clock (seconds since 1970) and on
    /// the boot's (`-` when it is not this boot's), each to the millisecond.
    private static func strangerText(_ touches: Double, _ at: LockoutDeadline, onBootClock: Bool) -> String {
        func milli(_ value: Double) -> String {
            let whole = (value * 1000).rounded()
            let integer = Int64(whole / 1000), fraction = Int64(whole) - integer * 1000
            let digits = String(fraction)
            return "\(integer)." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return "\(milli(touches)) \(milli(at.wall.timeIntervalSince1970)) \(onBootClock ? milli(at.uptime ?? 0) : "-")"
    }

    private static func strangerTouches(_ text: String, bootID: String?) -> (Double, LockoutDeadline)? {
        let parts = text.split(separator: " ").map(String.init)
        guard parts.count == 3, let touches = Double(parts[0]), touches.isFinite, (0...Double(maximumCount)).contains(touches),
              let wall = Double(parts[1]), wall.isFinite, (0...1e11).contains(wall) else { return nil }
        var uptime: Double?
        if parts[2] != "-" {
            guard let value = Double(parts[2]), value.isFinite, value >= 0 else { return nil }
            uptime = value
        }
        // A moment in the future is not damage here: it proves nothing, and the rules then keep
        // the count whole (LockoutRules.recentStrangerTouches).
        return (touches, LockoutDeadline(wall: Date(timeIntervalSince1970: wall), uptime: uptime, bootID: uptime == nil ? nil : bootID))
    }

    /// No wait is longer than a year; a deadline further out is damage, not a lockout.
    private static func deadline(_ container: KeyedDecodingContainer<CodingKeys>, _ wallKey: CodingKeys, _ uptimeKey: CodingKeys,
                                 bootID: String?) throws -> LockoutDeadline? {
        guard let wall = try container.decodeIfPresent(Date.self, forKey: wallKey) else { return nil }
        let uptime = try container.decodeIfPresent(Double.self, forKey: uptimeKey)
        guard uptime?.isFinite ?? true else {
            throw DecodingError.dataCorruptedError(forKey: uptimeKey, in: container, debugDescription: "\(uptimeKey.stringValue) is not a number")
        }
        let deadline = LockoutDeadline(wall: wall, uptime: uptime, bootID: uptime == nil ? nil : bootID)
        guard (LockoutClock.now().remaining(deadline) ?? 0) <= 86_400 * 366 else {
            throw DecodingError.dataCorruptedError(forKey: wallKey, in: container, debugDescription: "\(wallKey.stringValue) is more than a year away")
        }
        return deadline
    }

    /// A count read from a file: negative or absurd values are damage (a negative
    /// count would otherwise grant a million attempts).
    private static func count(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, maximum: Int) throws -> Int {
        let value = try container.decode(Int.self, forKey: key)
        guard (0...maximum).contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(key.stringValue) is \(value), outside 0...\(maximum)")
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

    /// The counter a file that cannot be read stands for: locked out as a damaged one, with the cause.
    public static func unreadablePlaceholder(_ cause: String) -> AttemptCounter {
        var counter = AttemptCounter()
        counter.unreadable = cause
        counter.biometryLockedOut = true
        return counter
    }

    /// The counter a failed read stands for: damage as damage, anything else as unreadable with its cause.
    package static func placeholder(for error: any Error) -> AttemptCounter {
        if case .damaged? = error as? StoreError { return damagedPlaceholder }
        return unreadablePlaceholder("\(error)")
    }
}
