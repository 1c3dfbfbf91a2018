import FoundationEssentials

/// When a user last proved who they are, and by what, for iOS's rules on when the password or
/// passcode is needed again (the rules themselves are the engine's, `LockoutRules`): the last
/// password or passcode, the last fingerprint match, and a remote lock (`fpbridge lock`).
///
/// Kept beside the user's counter as `counters/user-NAME.times`, read and written in the same
/// state-lock transactions. A missing file means nothing is known: no password since this boot,
/// no authentication for ever, which is what the rules then judge. A file that cannot be used
/// (damaged, unreadable) refuses biometry until the password or passcode, whose record replaces
/// it whole: the safest state of this record is the one a correct secret writes anyway.
public struct AuthenticationTimes: Sendable, Hashable, Codable {
    /// The last correct password or passcode, on both clocks (a ``LockoutClock/moment``).
    public var secret: LockoutDeadline?
    /// The last fingerprint match, on both clocks.
    public var biometry: LockoutDeadline?
    /// When a remote lock was set (wall clock, for people): until the password or passcode,
    /// whatever any clock says.
    public var lockedAt: Date?
    /// Why the file cannot be used (damaged or unreadable, with its path), nil when it can.
    public var problem: String?

    /// Whether the file could not be used: every rule treats that as "password needed", and it
    /// is never written back as read.
    public var unusable: Bool { problem != nil }

    /// Nothing known.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case secret, biometry, lockedAt
    }

    private enum MomentKeys: String, CodingKey {
        case wall, uptime, bootID
    }

    /// The longest boot id kept (the kernel's is 36 characters).
    public static let maximumBootID = 64

    /// Reads the file, range-checking the boot clock and the boot id.
    /// - Throws: `DecodingError` for a value of the wrong type or out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        secret = try Self.moment(container, .secret)
        biometry = try Self.moment(container, .biometry)
        lockedAt = try container.decodeIfPresent(Date.self, forKey: .lockedAt)
    }

    /// Writes the record; every moment keeps its boot id and boot clock (the boot rule compares ids).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        for (moment, key) in [(secret, CodingKeys.secret), (biometry, .biometry)] {
            guard let moment else { continue }
            var nested = container.nestedContainer(keyedBy: MomentKeys.self, forKey: key)
            try nested.encode(moment.wall, forKey: .wall)
            try nested.encodeIfPresent(moment.uptime, forKey: .uptime)
            try nested.encodeIfPresent(moment.bootID, forKey: .bootID)
        }
        try container.encodeIfPresent(lockedAt, forKey: .lockedAt)
    }

    private static func moment(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> LockoutDeadline? {
        guard container.contains(key) else { return nil }
        let nested = try container.nestedContainer(keyedBy: MomentKeys.self, forKey: key)
        let wall = try nested.decode(Date.self, forKey: .wall)
        let uptime = try nested.decodeIfPresent(Double.self, forKey: .uptime)
        // A boot clock runs for less than a century; anything else is damage, not history.
        if let uptime, !(uptime >= 0 && uptime < 86_400 * 36_500) {
            throw DecodingError.dataCorruptedError(forKey: .uptime, in: nested, debugDescription: "\(key.stringValue).uptime is out of range")
        }
        let bootID = try nested.decodeIfPresent(String.self, forKey: .bootID)
        if let bootID, bootID.isEmpty || bootID.utf8.count > maximumBootID {
            throw DecodingError.dataCorruptedError(forKey: .bootID, in: nested, debugDescription: "\(key.stringValue).bootID is not a boot id")
        }
        return LockoutDeadline(wall: wall, uptime: uptime, bootID: bootID)
    }

    /// The record a file that cannot be used stands for: nothing known, with why.
    package static func placeholder(for error: any Error) -> AuthenticationTimes {
        var times = AuthenticationTimes()
        times.problem = "\(error)"
        return times
    }
}
