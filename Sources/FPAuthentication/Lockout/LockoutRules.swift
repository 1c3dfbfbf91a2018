import FPStore
import FoundationEssentials

/// Every rule of the spec about failure counts and lockouts, in one place: what counts, what
/// locks, what a success, a correct passcode or a repair clears, and how time is measured; with
/// iOS's rules on when the password is needed again (LockoutRules+Password.swift).
///
/// Verification counts per user: the 5th consecutive failure locks biometry
/// until that user's passcode. Identification counts per reader, with
/// Android's timed model so that one stranger cannot lock a kiosk for everyone:
/// each 5th failure locks the reader for a wait that grows (30 s, 2 min,
/// 10 min by default), and the 20th locks it until the passcode of a user who
/// was enrolled on that reader before the lockout began. A damaged counter is
/// locked on every path until an administrator repairs it.
///
/// Time: timed waits end at a ``LockoutDeadline`` judged on the boot's own clock within the
/// boot that set it (see ``LockoutClock``); "enrolled before the lockout began" compares the
/// reader's lockout epoch with the one the print recorded, never two wall-clock times.
struct LockoutRules {
    let configuration: AuthConfiguration
    /// The moment every rule of this value is applied at.
    let clock: LockoutClock

    init(configuration: AuthConfiguration, clock: LockoutClock = .now()) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Why biometry may not scan for this scope now, nil when it may.
    func biometricBlock(_ counter: AttemptCounter, scope: CounterScope, path: String) -> AuthError? {
        if counter.unusable {
            return AuthError(.biometryLockout, "\(counter.problem(at: path)), so biometry counts as locked out "
                             + (counter.damaged ? "until an administrator repairs the state" : "until it can be read"),
                             cause: counter.damaged ? .damagedState : nil)
        }
        if counter.biometryLockedOut {
            let unlock = switch scope {
            // On a desktop nobody set a passcode: the login password is what is asked, and it lifts
            // the lockout as the passcode does (issue 51).
            case .user: "the fpbridge passcode unlocks it, and so does the login password where the fpbridge-password PAM profile is on"
            case .reader: "the passcode of a user enrolled on this reader unlocks it"
            }
            return AuthError(.biometryLockout, "biometry is locked out for \(scope) after too many failed matches; \(unlock)")
        }
        if let left = clock.remaining(counter.biometryLockedUntil) {
            let wait = max(1, left.rounded(.up))
            return AuthError(.biometryLockout, "identification on this reader is locked for \(Int(wait)) more seconds "
                             + "after \(counter.biometricFailures) failed matches", retryAfter: wait)
        }
        return nil
    }

    /// Why biometry may not scan for `user` now: their counter's lockout first, then iOS's rules
    /// on when the password is needed again (``passwordRequirement(_:user:)``). Every door that
    /// scans or matches for a user asks this.
    func userBlock(_ counter: AttemptCounter, times: AuthenticationTimes, user: String, path: String) -> AuthError? {
        biometricBlock(counter, scope: .user(user), path: path) ?? passwordRequirement(times, user: user)?.error
    }

    /// Counts one failed match. Returns the error that ends the evaluation when
    /// this failure locked biometry; a counter that is already locked is not
    /// counted further (concurrent attempts never exceed the limit).
    func recordFailure(_ counter: inout AttemptCounter, scope: CounterScope, path: String) -> AuthError? {
        if let block = biometricBlock(counter, scope: scope, path: path) { return block }
        counter.biometricFailures += 1
        let failures = counter.biometricFailures
        switch scope {
        case .user:
            guard failures >= configuration.biometricLockoutThreshold else { return nil }
            counter.biometryLockedOut = true
            beginLockout(&counter)
            return AuthError(.biometryLockout, "biometry is now locked out for \(scope) after \(failures) failed matches in a row; "
                             + "the fpbridge passcode unlocks it, and so does the login password where the fpbridge-password PAM profile is on")
        case .reader:
            countStrangerTouch(&counter)
            if failures >= configuration.identificationPermanentLockoutThreshold {
                counter.biometryLockedOut = true
                beginLockout(&counter)
                return AuthError(.biometryLockout, "identification on \(scope) is now locked after \(failures) failed matches; "
                                 + "the passcode of a user enrolled on this reader unlocks it")
            }
            let step = configuration.identificationLockoutThreshold
            guard failures % step == 0 else { return nil }
            let waits = configuration.identificationLockoutSeconds
            let wait = waits[min(failures / step - 1, waits.count - 1)]
            counter.biometryLockedUntil = clock.deadline(after: wait)
            beginLockout(&counter)
            return AuthError(.biometryLockout, "identification on \(scope) is locked for \(Int(wait)) seconds after \(failures) "
                             + "failed matches", retryAfter: wait)
        }
    }

    /// The first lockout of a run of failures takes the next epoch; later ones in the same run keep it.
    private func beginLockout(_ counter: inout AttemptCounter) {
        guard counter.lockoutBeganAt == nil && counter.lockoutEpoch == nil else { return }
        counter.lockoutBeganAt = clock.wall
        counter.epoch += 1
        counter.lockoutEpoch = counter.epoch
    }

    /// A match clears the scope's failures and any lockout of the run (the epoch stays: it only goes up).
    static func clearBiometric(_ counter: inout AttemptCounter) {
        counter.biometricFailures = 0
        counter.biometryLockedOut = false
        counter.biometryLockedUntil = nil
        counter.lockoutBeganAt = nil
        counter.lockoutEpoch = nil
    }

    /// The user's login password, proved to a PAM stack (fpbridged's fprintd face hears of it
    /// from `fpbridge pam-password-proved`), lifts the biometric lockout as the passcode does on
    /// iOS, and nothing else: the fpbridge passcode's own failures stay counted, since a
    /// different secret must not reset the guesses at this one.
    static func passwordProved(_ counter: inout AttemptCounter) {
        clearBiometric(&counter)
    }

    /// A correct passcode clears everything but the epoch and a reader's recent failed
    /// identifications (LockoutRules+Strangers.swift: a right PIN must not refill a guesser's budget).
    static func cleared(_ counter: AttemptCounter) -> AttemptCounter {
        var cleared = AttemptCounter()
        cleared.epoch = counter.epoch
        cleared.strangerTouches = counter.strangerTouches
        cleared.strangerTouchesAt = counter.strangerTouchesAt
        return cleared
    }

    /// Failed matches left before the next lockout of this scope.
    func attemptsLeft(_ counter: AttemptCounter, scope: CounterScope) -> Int {
        if counter.unusable || counter.biometryLockedOut { return 0 }
        switch scope {
        case .user:
            return max(0, configuration.biometricLockoutThreshold - counter.biometricFailures)
        case .reader:
            let step = configuration.identificationLockoutThreshold
            let nextTimed = (counter.biometricFailures / step + 1) * step
            return min(nextTimed, configuration.identificationPermanentLockoutThreshold) - counter.biometricFailures
        }
    }

    /// The reader's epoch a print saved now records (see ``passcodeUnlocksReader(_:prints:)``).
    static func enrollmentEpoch(_ readerCounter: AttemptCounter) -> Int { readerCounter.epoch }

    /// Whether a correct passcode of a user lifts a reader's identification lockout: only when
    /// one of the user's prints on it was enrolled before the lockout began. A print saved
    /// before epochs were kept predates every lockout that has one; a lockout from before
    /// epochs falls back to the wall-clock times it has.
    static func passcodeUnlocksReader(_ counter: AttemptCounter, prints: [PrintRecord]) -> Bool {
        guard !counter.unusable else { return false }
        if let began = counter.lockoutEpoch {
            return prints.contains { $0.readerEpoch.map { $0 < began } ?? true }
        }
        guard let began = counter.lockoutBeganAt else {
            // No lockout has begun: failures alone are reset by any enrolled user's passcode.
            return !prints.isEmpty
        }
        return prints.contains { $0.readerEpoch == nil && $0.enrolledAt < began }
    }

    /// Why the passcode may not be checked now, nil when it may.
    func passcodeBlock(_ counter: AttemptCounter, path: String) -> AuthError? {
        if counter.unusable {
            return AuthError(.stateDamaged, "\(counter.problem(at: path)), so the passcode is refused "
                             + (counter.damaged ? "until an administrator repairs the state" : "until it can be read"),
                             cause: counter.damaged ? .damagedState : nil)
        }
        if let left = clock.remaining(counter.passcodeLockedUntil) {
            let wait = max(1, left.rounded(.up))
            return AuthError(.passcodeLockout, "too many wrong passcodes; try again in \(Int(wait)) seconds", retryAfter: wait)
        }
        return nil
    }

    /// Seconds until the passcode may be tried again; nil when it may now.
    func passcodeRetryAfter(_ counter: AttemptCounter) -> TimeInterval? {
        clock.remaining(counter.passcodeLockedUntil).map { $0.rounded(.up) }
    }

    /// What the attempt could not be recorded for: see ``unrecordable(_:scope:passcode:)``.
    /// Matches and failures alike write the counter before they are reported, so a disk that
    /// cannot record a failure reports no success either (no match/no-match signal), and
    /// nothing of that scope succeeds until the write does.
    static func unrecordable(_ error: CounterWriteFailure, scope: CounterScope, passcode: Bool) -> AuthError {
        let what = passcode ? "passcode" : "fingerprint"
        // The advice follows what the filesystem said; the cause lets a program tell them apart.
        let (advice, cause): (String, AuthErrorCause?) = switch error.error.fileSystemFailure {
        case .full: ("free space on the disk that holds the state directory", .diskFull)
        case .notWritable: ("give the state directory back to its user (mode 0700) or make its filesystem writable", .stateNotWritable)
        case .other, nil: ("free space or fix the state directory", nil)
        }
        return AuthError(passcode ? .passcodeLockout : .biometryLockout,
                         "the attempt could not be recorded for \(scope) (\(error.description)), so \(what) checks are "
                         + "refused until it can be: \(advice)", cause: cause)
    }

    /// What a repair puts in place of a counter it could not read: locked out, never "no
    /// failures"; the owner's passcode (a reader's: that of a user enrolled before the repair)
    /// unlocks it. The lost epoch is replaced by one above every print's, so that the epochs
    /// still only go up and every print saved so far counts as enrolled before this lockout.
    static func lockedByRepair(prints: [PrintRecord], now: Date = Date()) -> AttemptCounter {
        var locked = AttemptCounter()
        locked.biometryLockedOut = true
        locked.lockoutBeganAt = now
        locked.epoch = (prints.compactMap(\.readerEpoch).max() ?? 0) + 1
        locked.lockoutEpoch = locked.epoch
        return locked
    }

    /// Counts one wrong passcode; returns the lockout it caused, if any.
    func recordWrongPasscode(_ counter: inout AttemptCounter) -> AuthError? {
        counter.passcodeFailures += 1
        guard let wait = configuration.passcodeWait(afterFailures: counter.passcodeFailures) else { return nil }
        counter.passcodeLockedUntil = clock.deadline(after: wait)
        return passcodeBlock(counter, path: "")
    }

    // MARK: - A kiosk's PIN pad

    /// Wrong PINs a kiosk's PIN pad may enter in a burst, whoever they were for: a name nobody
    /// has costs a guess as a wrong PIN does, so a kiosk cannot try names to learn who exists,
    /// nor spread guesses over many users to stay under each one's passcode limit.
    static let kioskGuesses = 10
    /// One guess of the budget comes back every this many seconds.
    static let kioskGuessRefillSeconds: TimeInterval = 60
    /// Past the burst, the pad slows rather than stops (issue 40 §2): one PIN every this many
    /// seconds, whoever it is for. One person who spent the burst keeps the next one waiting
    /// this long at most, while the fingerprint path keeps its own lockout; an attacker who
    /// stays at the pad gets at most 720 guesses an hour over all users, each user still under
    /// their own passcode limits (docs/kiosk.md, "Limits at a kiosk", weighs it).
    static let kioskPaceSeconds: TimeInterval = 5
    /// The most guesses remembered as spent (one comes back a minute): after this many
    /// minutes of quiet the whole burst is back, however long the pad was paced.
    static let kioskGuessMemory = 60.0

    /// Takes one guess from a kiosk's budget before its PIN is checked. Within the burst it
    /// is taken at once; past it, one every ``kioskPaceSeconds`` (throws, saying how many
    /// seconds are left, when one comes sooner). A correct PIN gives its guess back
    /// (``returnKioskGuess(_:)``): people logging in never use the budget up.
    func spendKioskGuess(_ budget: inout KioskGuessBudget) throws(AuthError) {
        refill(&budget)
        // Paced once less than a whole guess is left of the burst (guesses come back in fractions).
        if budget.spent + 1 > Double(Self.kioskGuesses), let last = budget.lastGuessAt {
            let left = Self.kioskPaceSeconds - max(0, clock.uptime - last)
            // A millisecond's slack: a guess on the pace's very second is on time.
            if left > 0.001 {
                let wait = max(1, left.rounded(.up))
                throw AuthError(.pinPadResting, "this kiosk's PIN pad takes one PIN every \(Int(Self.kioskPaceSeconds)) seconds "
                                + "after many wrong ones; try again in \(Int(wait)) seconds or use the reader", retryAfter: wait)
            }
        }
        budget.spent = min(budget.spent + 1, Self.kioskGuessMemory)
        budget.lastGuessAt = clock.uptime
    }

    /// Gives back the guess a correct PIN took.
    func returnKioskGuess(_ budget: inout KioskGuessBudget) {
        refill(&budget)
        budget.spent = max(0, budget.spent - 1)
    }

    private func refill(_ budget: inout KioskGuessBudget) {
        let elapsed = max(0, clock.uptime - budget.at)
        budget.spent = max(0, budget.spent - elapsed / Self.kioskGuessRefillSeconds)
        budget.at = clock.uptime
    }
}
