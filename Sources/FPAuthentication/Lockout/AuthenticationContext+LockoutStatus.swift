import FPStore
import FoundationEssentials

// The status itself is vocabulary (FPVocabulary), which a client of the service decodes;
// reading it from the counters is the engine's.
extension AuthenticationContext {
    /// The lockout state of the user (verification) or of a reader (identification).
    ///
    /// A lock file that cannot be taken refuses every check (no failure could be counted),
    /// so the status says so, locked out and why, instead of what the counter alone says.
    public func lockoutStatus(_ scope: CounterScope) -> LockoutStatus {
        let rules = environment.lockoutRules
        let counter = counter(scope)
        let path = environment.counters.path(for: scope)
        var block = rules.biometricBlock(counter, scope: scope, path: path)
        // iOS's rules for a user: which asks for the password now, or when one will.
        var requirement: (rule: PasswordRule, error: AuthError)?
        var neededIn: TimeInterval?
        if case .user(let user) = scope {
            let times = environment.counters.times(user: user)
            requirement = rules.passwordRequirement(times, user: user)
            neededIn = requirement == nil ? rules.passwordNeededIn(times) : nil
            block = block ?? requirement?.error
        }
        let passcodeUntil = rules.passcodeRetryAfter(counter)
        let lock = StateLock(directory: environment.stateDirectory)
        let lockProblem = lock.problem().map { "\(lock.path): \($0) (repair it: fpbridge repair --yes)" }
        var status = LockoutStatus(failures: counter.unusable ? nil : counter.biometricFailures,
                             attemptsLeftBeforeLockout: block == nil && lockProblem == nil ? rules.attemptsLeft(counter, scope: scope) : 0,
                             lockedOut: block != nil || lockProblem != nil, retryAfter: block?.retryAfter,
                             damagedCounter: counter.damaged ? path : nil,
                             passcodeFailures: counter.unusable ? nil : counter.passcodeFailures,
                             passcodeRetryAfter: passcodeUntil, message: block?.message ?? lockProblem,
                             unusableLock: lockProblem == nil ? nil : lock.path)
        status.passwordRule = requirement?.rule
        status.passwordNeededIn = neededIn
        return status
    }
}
