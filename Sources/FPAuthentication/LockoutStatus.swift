import FPStore
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
}

extension AuthenticationContext {
    /// The lockout state of the user (verification) or of a reader (identification).
    public func lockoutStatus(_ scope: CounterScope) -> LockoutStatus {
        let rules = environment.lockoutRules
        let counter = counter(scope)
        let path = environment.counters.path(for: scope)
        let block = rules.biometricBlock(counter, scope: scope, path: path)
        let passcodeUntil = rules.passcodeRetryAfter(counter)
        return LockoutStatus(failures: counter.damaged ? nil : counter.biometricFailures,
                             attemptsLeftBeforeLockout: block == nil ? rules.attemptsLeft(counter, scope: scope) : 0,
                             lockedOut: block != nil, retryAfter: block?.retryAfter,
                             damagedCounter: counter.damaged ? path : nil,
                             passcodeFailures: counter.damaged ? nil : counter.passcodeFailures,
                             passcodeRetryAfter: passcodeUntil, message: block?.message)
    }
}
