import FoundationEssentials

/// What the counters of one scope mean right now, as the engine will apply them.
public struct LockoutStatus: Sendable, Hashable, Codable {
    /// Consecutive failed matches; nil when the counter is damaged and unknown.
    public let failures: Int?
    /// Failed matches left before the next lockout (0 while locked).
    public let attemptsLeftBeforeLockout: Int
    /// True while biometry may not scan for this scope.
    public let lockedOut: Bool
    /// Seconds until a timed lockout ends; nil when not timed.
    public let retryAfter: TimeInterval?
    /// The counter file, when it is damaged (fail-closed until repaired).
    public let damagedCounter: String?
    /// Consecutive wrong passcodes; nil when unknown.
    public let passcodeFailures: Int?
    /// Seconds until the passcode may be tried again; nil when it may.
    public let passcodeRetryAfter: TimeInterval?
    /// Why the engine explains the lockout, nil when not locked.
    public let message: String?
    /// The state directory's lock file, when it is unusable (not a regular file): nothing
    /// can be counted, so every check is refused until a repair moves it aside, whatever
    /// the counter says. Nil from a service that predates it.
    public let unusableLock: String?
    /// Which of iOS's rules asks for the password or passcode now (then ``lockedOut`` is true);
    /// nil when none does, and from a service that predates them.
    public var passwordRule: PasswordRule?
    /// When none does yet: seconds until one of the timed rules (idle, age) will; nil when none
    /// is on, or one applies.
    public var passwordNeededIn: TimeInterval?

    /// A status as the engine computes it (or as a service reported it to its client).
    package init(failures: Int?, attemptsLeftBeforeLockout: Int, lockedOut: Bool, retryAfter: TimeInterval?,
                 damagedCounter: String?, passcodeFailures: Int?, passcodeRetryAfter: TimeInterval?, message: String?,
                 unusableLock: String? = nil) {
        self.failures = failures
        self.attemptsLeftBeforeLockout = attemptsLeftBeforeLockout
        self.lockedOut = lockedOut
        self.retryAfter = retryAfter
        self.damagedCounter = damagedCounter
        self.passcodeFailures = passcodeFailures
        self.passcodeRetryAfter = passcodeRetryAfter
        self.message = message
        self.unusableLock = unusableLock
    }
}
