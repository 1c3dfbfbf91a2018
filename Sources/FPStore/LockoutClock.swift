import FPCore
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The clocks a timed lockout is measured on.
///
/// A deadline is kept twice in the counter file: on the wall clock, which every process and
/// every boot shares but which an administrator, NTP or a dead RTC battery can move; and on
/// the time since boot (`CLOCK_BOOTTIME`, counting suspend), which never goes back and is the
/// same for every process of one boot, with the boot's id. Within the boot that set it the
/// second decides, so moving the wall clock neither ends nor lengthens a wait; after a reboot
/// only the wall clock is left (a clock set back then lengthens the wait, one set forward
/// ends it early).
public struct LockoutClock: Sendable, Hashable {
    /// The wall clock.
    public var wall: Date
    /// Seconds since boot (`CLOCK_BOOTTIME`).
    public var uptime: TimeInterval
    /// The kernel's id of this boot (`/proc/sys/kernel/random/boot_id`); nil when unknown.
    public var bootID: String?

    /// The clocks as given (tests move one without the other).
    public init(wall: Date, uptime: TimeInterval, bootID: String?) {
        self.wall = wall
        self.uptime = uptime
        self.bootID = bootID
    }

    /// The clocks now.
    public static func now() -> LockoutClock {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return LockoutClock(wall: Date(), uptime: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9, bootID: thisBoot)
    }

    /// This boot's id: the one the service manager gave (``useServiceBootID(_:)``), else the
    /// kernel's, read once (it cannot change while the process runs).
    static var thisBoot: String? {
        serviceBootID.withLock { $0 } ?? kernelBoot
    }

    private static let kernelBoot: String? = kernelBootID()
    private static let serviceBootID = Mutex<String?>(nil)

    /// fpbridged's `--boot-id`: fpbridged.service passes systemd's `%b`, the boot id of the system
    /// the service runs in. On a machine that is the kernel's; in a container it is the
    /// container's own (systemd-nspawn gives each of its boots one), which the service's sandbox
    /// would otherwise hide: `ProtectProc=` mounts a /proc of its own, where the file shows the
    /// host kernel's id, and a container's reboot never looked like a boot (issue 51). A command
    /// option and not the environment: `pam_exec` hands a PAM environment, which a user can
    /// fill, to the programs it starts. Called once at start, before any clock is read; returns
    /// false (and changes nothing) for a value that is not a boot id.
    @discardableResult
    public static func useServiceBootID(_ text: String) -> Bool {
        guard let id = normalizedBootID(text) else { return false }
        serviceBootID.withLock { $0 = id }
        return true
    }

    /// `text` as the kernel writes a boot id (36 characters, lower case, dashed), from that form
    /// or systemd's 32 hex digits; nil for anything else (the kernel's id is used then).
    public static func normalizedBootID(_ text: String) -> String? {
        let given = Array(text.trimmed.lowercased().utf8)
        let dashes = [8, 13, 18, 23]
        let digits: [UInt8]
        if given.count == 36, dashes.allSatisfy({ given[$0] == UInt8(ascii: "-") }) {
            digits = given.enumerated().filter { !dashes.contains($0.offset) }.map(\.element)
        } else if given.count == 32 {
            digits = given
        } else {
            return nil
        }
        guard digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        let hex = String(decoding: digits, as: UTF8.self)
        let cuts = [0, 8, 12, 16, 20, 32].map { hex.utf8.index(hex.utf8.startIndex, offsetBy: $0) }
        return (0..<5).map { String(hex[cuts[$0]..<cuts[$0 + 1]]) }.joined(separator: "-")
    }

    static func kernelBootID() -> String? {
        let fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmed
        return text.isEmpty ? nil : text
    }

    /// A deadline `seconds` from now, on both clocks.
    public func deadline(after seconds: TimeInterval) -> LockoutDeadline {
        LockoutDeadline(wall: wall.addingTimeInterval(seconds), uptime: bootID == nil ? nil : uptime + seconds, bootID: bootID)
    }

    /// Seconds left until `deadline`; nil when it has passed or there is none.
    public func remaining(_ deadline: LockoutDeadline?) -> TimeInterval? {
        guard let deadline else { return nil }
        let left: TimeInterval
        if let bootID, deadline.bootID == bootID, let uptime = deadline.uptime {
            left = uptime - self.uptime
        } else {
            left = deadline.wall.timeIntervalSince(wall)
        }
        return left > 0 ? left : nil
    }

    /// This moment on both clocks, kept to measure the time since it later (``elapsed(since:)``).
    /// It keeps the boot clock even when the boot id is unknown: a boot clock gone back then
    /// tells a boot (``bootedSince(_:)``).
    public var moment: LockoutDeadline {
        LockoutDeadline(wall: wall, uptime: uptime, bootID: bootID)
    }

    /// Seconds since `moment`, measured as ``remaining(_:)`` measures a deadline: on the boot's
    /// clock within the boot that kept it, on the wall clock after a reboot. Nil when the clocks
    /// put it in the future (a wall clock set back after a reboot, or a record from elsewhere):
    /// such a moment proves nothing, and whoever asks must treat it as never.
    public func elapsed(since moment: LockoutDeadline) -> TimeInterval? {
        let elapsed: TimeInterval
        if let bootID, moment.bootID == bootID, let then = moment.uptime {
            elapsed = uptime - then
        } else {
            elapsed = wall.timeIntervalSince(moment.wall)
        }
        return elapsed >= 0 ? elapsed : nil
    }

    /// Whether the machine has started since `moment`: its boot id differs from this boot's.
    /// With an id unknown on one side the answer is yes (nothing shows it is the same boot);
    /// unknown on both, the boot clock going back is a boot.
    public func bootedSince(_ moment: LockoutDeadline) -> Bool {
        switch (bootID, moment.bootID) {
        case (let now?, let then?): return now != then
        case (nil, nil): return (moment.uptime ?? .infinity) > uptime
        default: return true
        }
    }
}

/// One timed lockout's end, on the wall clock and on the boot's own clock (see ``LockoutClock``);
/// also a moment kept to measure the time since it (``LockoutClock/moment``).
public struct LockoutDeadline: Sendable, Hashable {
    /// When it ends on the wall clock.
    public var wall: Date
    /// When it ends in seconds since boot, for the boot `bootID`.
    public var uptime: TimeInterval?
    /// The boot whose clock `uptime` is on.
    public var bootID: String?

    /// A deadline as stored.
    public init(wall: Date, uptime: TimeInterval?, bootID: String?) {
        self.wall = wall
        self.uptime = uptime
        self.bootID = bootID
    }
}
