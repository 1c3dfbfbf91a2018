import FPStore
import FoundationEssentials

// The status itself is vocabulary (FPVocabulary), which a client of the service decodes;
// reading it from the counters is the engine's.
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
