import FPStore
import FoundationEssentials

/// Every rule of the spec about failure counts and lockouts, in one place.
///
/// Verification counts per user: the 5th consecutive failure locks biometry
/// until that user's passcode. Identification counts per reader, with
/// Android's timed model so that one stranger cannot lock a kiosk for everyone:
/// each 5th failure locks the reader for a wait that grows (30 s, 2 min,
/// 10 min by default), and the 20th locks it until the passcode of a user who
/// was enrolled on that reader before the lockout began. A damaged counter is
/// locked on every path until an administrator repairs it.
struct LockoutRules {
    let configuration: AuthConfiguration

    /// Why biometry may not scan for this scope now, nil when it may.
    func biometricBlock(_ counter: AttemptCounter, scope: CounterScope, path: String, now: Date = Date()) -> AuthError? {
        if counter.damaged {
            return AuthError(.biometryLockout, "the attempt counter \(path) is damaged, so biometry counts as locked out "
                             + "until an administrator repairs the state")
        }
        if counter.biometryLockedOut {
            let unlock = switch scope {
            case .user: "enter the passcode to unlock"
            case .reader: "the passcode of a user enrolled on this reader unlocks it"
            }
            return AuthError(.biometryLockout, "biometry is locked out for \(scope) after too many failed matches; \(unlock)")
        }
        if let until = counter.biometryLockedUntil, until > now {
            let wait = max(1, until.timeIntervalSince(now).rounded(.up))
            return AuthError(.biometryLockout, "identification on this reader is locked for \(Int(wait)) more seconds "
                             + "after \(counter.biometricFailures) failed matches", retryAfter: wait)
        }
        return nil
    }

    /// Counts one failed match. Returns the error that ends the evaluation when
    /// this failure locked biometry; a counter that is already locked is not
    /// counted further (concurrent attempts never exceed the limit).
    func recordFailure(_ counter: inout AttemptCounter, scope: CounterScope, path: String, now: Date = Date()) -> AuthError? {
        if let block = biometricBlock(counter, scope: scope, path: path, now: now) { return block }
        counter.biometricFailures += 1
        let failures = counter.biometricFailures
        switch scope {
        case .user:
            guard failures >= configuration.biometricLockoutThreshold else { return nil }
            counter.biometryLockedOut = true
            if counter.lockoutBeganAt == nil { counter.lockoutBeganAt = now }
            return AuthError(.biometryLockout, "biometry is now locked out for \(scope) after \(failures) failed matches in a row; "
                             + "enter the passcode to unlock")
        case .reader:
            if failures >= configuration.identificationPermanentLockoutThreshold {
                counter.biometryLockedOut = true
                if counter.lockoutBeganAt == nil { counter.lockoutBeganAt = now }
                return AuthError(.biometryLockout, "identification on \(scope) is now locked after \(failures) failed matches; "
                                 + "the passcode of a user enrolled on this reader unlocks it")
            }
            let step = configuration.identificationLockoutThreshold
            guard failures % step == 0 else { return nil }
            let waits = configuration.identificationLockoutSeconds
            let wait = waits[min(failures / step - 1, waits.count - 1)]
            counter.biometryLockedUntil = now.addingTimeInterval(wait)
            if counter.lockoutBeganAt == nil { counter.lockoutBeganAt = now }
            return AuthError(.biometryLockout, "identification on \(scope) is locked for \(Int(wait)) seconds after \(failures) "
                             + "failed matches", retryAfter: wait)
        }
    }

    /// Failed matches left before the next lockout of this scope.
    func attemptsLeft(_ counter: AttemptCounter, scope: CounterScope) -> Int {
        if counter.damaged || counter.biometryLockedOut { return 0 }
        switch scope {
        case .user:
            return max(0, configuration.biometricLockoutThreshold - counter.biometricFailures)
        case .reader:
            let step = configuration.identificationLockoutThreshold
            let nextTimed = (counter.biometricFailures / step + 1) * step
            return min(nextTimed, configuration.identificationPermanentLockoutThreshold) - counter.biometricFailures
        }
    }

    /// Whether a correct passcode of a user lifts a reader's identification
    /// lockout: only when the user was enrolled there before it began.
    static func passcodeUnlocksReader(_ counter: AttemptCounter, enrolledAt: [Date]) -> Bool {
        guard !counter.damaged else { return false }
        guard let began = counter.lockoutBeganAt else {
            // No lockout has begun: failures alone are reset by any enrolled user's passcode.
            return !enrolledAt.isEmpty
        }
        return enrolledAt.contains { $0 < began }
    }

    /// Why the passcode may not be checked now, nil when it may.
    static func passcodeBlock(_ counter: AttemptCounter, path: String, now: Date = Date()) -> AuthError? {
        if counter.damaged {
            return AuthError(.stateDamaged, "the attempt counter \(path) is damaged, so the passcode is refused until an "
                             + "administrator repairs the state")
        }
        if let until = counter.passcodeLockedUntil, until > now {
            let wait = max(1, until.timeIntervalSince(now).rounded(.up))
            return AuthError(.passcodeLockout, "too many wrong passcodes; try again in \(Int(wait)) seconds", retryAfter: wait)
        }
        return nil
    }

    /// What a scan or a passcode check answers when its counter cannot be written: locked
    /// out, naming the file and why. Matches and failures alike write the counter before they
    /// are reported, so a disk that cannot record a failure reports no success either (no
    /// match/no-match signal), and nothing of that scope succeeds until the write does.
    static func unrecordable(_ error: CounterWriteFailure, scope: CounterScope, passcode: Bool) -> AuthError {
        let what = passcode ? "passcode" : "fingerprint"
        return AuthError(passcode ? .passcodeLockout : .biometryLockout,
                         "the attempt could not be recorded for \(scope) (\(error.description)), so \(what) checks are "
                         + "refused until it can be: free space or fix the state directory")
    }

    /// What a repair puts in place of a counter it could not read: locked out, never "no
    /// failures"; the owner's passcode (a reader's: an enrolled user's) unlocks it.
    static func lockedByRepair(now: Date = Date()) -> AttemptCounter {
        var locked = AttemptCounter()
        locked.biometryLockedOut = true
        locked.lockoutBeganAt = now
        return locked
    }

    /// Counts one wrong passcode; returns the lockout it caused, if any.
    func recordWrongPasscode(_ counter: inout AttemptCounter, now: Date = Date()) -> AuthError? {
        counter.passcodeFailures += 1
        guard let wait = configuration.passcodeWait(afterFailures: counter.passcodeFailures) else { return nil }
        counter.passcodeLockedUntil = now.addingTimeInterval(wait)
        return Self.passcodeBlock(counter, path: "", now: now)
    }
}
