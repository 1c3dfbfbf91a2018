import FPKeyFormats
import FPStore
import FoundationEssentials
import FPVocabulary

/// A kiosk's PIN pad: a user name and a passcode typed together at a shared terminal, checked
/// at once (it never waits for the reader) under every rule of that user's passcode.
///
/// A kiosk must not learn who exists: a name with no passcode (no such user, or one who never
/// set one) is answered exactly as a wrong PIN for a known user is: the same error, the same
/// scrypt work, no sooner than ``answerFloor``, and the same lockout after the same number of
/// tries (counted here, in memory, with ``LockoutRules``' passcode limits). Every wrong PIN a
/// kiosk enters also costs a guess of that kiosk's budget (``LockoutRules/kioskGuesses``).
package final class PinPad: Sendable {
    private struct State {
        /// Wrong PINs for names with no passcode, by state directory and name.
        var unknown: [String: AttemptCounter] = [:]
        /// Each kiosk's guesses, by uid.
        var budgets: [UInt32: KioskGuessBudget] = [:]
    }

    private let state = Locked(State())
    /// No answer comes sooner: the file reads and the counter's write of a known user take a
    /// few milliseconds more than a name nobody has; the floor hides them.
    package let answerFloor: Duration
    /// What the floor is measured on (a test's own clock, which it advances).
    private let clock: any Clock<Duration>

    /// The names with no passcode tracked at most; the oldest are forgotten first (their
    /// counts start again, as a service restart starts them).
    static let maximumUnknownNames = 10_000

    package init(answerFloor: Duration = .milliseconds(400), clock: any Clock<Duration> = ContinuousClock()) {
        self.answerFloor = answerFloor
        self.clock = clock
    }

    /// Checks `passcode` for the context's user. `kiosk`: the uid of the kiosk entering it,
    /// whose budget it spends; nil for a user checking their own.
    /// - Throws: `authenticationFailed` "wrong user or PIN" for a wrong PIN or a name with no
    ///   passcode alike; `passcodeLockout` with `retryAfter` for that name's lockout or the
    ///   kiosk's budget.
    package func check(_ passcode: Passcode, context: AuthenticationContext, kiosk: UInt32?) async throws(AuthError) -> AuthSuccess {
        try await floored { () async throws(AuthError) in try await attempt(passcode, context: context, kiosk: kiosk) }
    }

    /// Checks `passcode` as ``check(_:context:kiosk:)`` does, with every rule and count of it,
    /// and only when it is right signs `request`'s kiosk PIN login (`kiosk-pin-login`) with the
    /// user's login key for that server (``AuthenticationContext/signKioskProof(_:for:protection:)``).
    /// A wrong PIN signs nothing and counts exactly as it would without the request.
    ///
    /// The key is the user's `biometryCurrentSet` login key, the same one a finger releases at
    /// the kiosk: this service is what holds it to its rules, and here the rule is "the user's
    /// own passcode, checked under its limits", said in the signed purpose so that the server
    /// knows it was a PIN and never takes it for a finger. The kiosk holds no key.
    /// - Throws: what ``check(_:context:kiosk:)`` throws; `invalidInput` for a purpose other than
    ///   `kiosk-pin-login` (before anything is counted); after a right PIN, `notFound` (no login
    ///   key for that server), `keyInvalidated`, `stateDamaged`.
    package func prove(_ passcode: Passcode, request: ProofRequest, context: AuthenticationContext, kiosk: UInt32?,
                       protection: KeyProtection) async throws(AuthError) -> IdentifiedProof {
        guard request.purpose == .kioskPinLogin else {
            throw AuthError(.invalidInput, "the PIN pad signs only '\(AssertionPayload.Purpose.kioskPinLogin.rawValue)', "
                            + "not '\(request.purpose.rawValue)'")
        }
        return try await floored { () async throws(AuthError) in
            let success = try await attempt(passcode, context: context, kiosk: kiosk)
            return try context.signKioskProof(request, for: success, protection: protection)
        }
    }

    /// What the kiosk typed names no account (a badge number its list does not hold): answered
    /// and counted exactly as a wrong PIN for a name with no passcode (the same work, the same
    /// floor, that name's lockout, a guess of the kiosk's budget), and never checked against
    /// the passcode of a user who has that name.
    /// - Throws: always: `authenticationFailed` "wrong user or PIN", or `passcodeLockout`.
    package func refuseUnmapped(_ passcode: Passcode, context: AuthenticationContext, kiosk: UInt32?) async throws(AuthError) -> Never {
        try await floored { () async throws(AuthError) in
            try spendGuess(of: kiosk, rules: context.environment.lockoutRules)
            try await unknownName(passcode, context: context)
        }
        throw Self.wrong  // unknownName always throws; this only satisfies the type checker
    }

    /// `body`'s answer, no sooner than ``answerFloor`` on the pad's clock.
    private func floored<T: Sendable>(_ body: () async throws(AuthError) -> T) async throws(AuthError) -> T {
        try await Self.floored(on: clock, floor: answerFloor, body)
    }

    private static func floored<C: Clock, T: Sendable>(on clock: C, floor: Duration, _ body: () async throws(AuthError) -> T)
        async throws(AuthError) -> T where C.Duration == Duration {
        let started = clock.now
        let outcome: Result<T, AuthError>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        try? await clock.sleep(until: started.advanced(by: floor), tolerance: nil)
        return try outcome.get()
    }

    private func attempt(_ passcode: Passcode, context: AuthenticationContext, kiosk: UInt32?) async throws(AuthError) -> AuthSuccess {
        let environment = context.environment
        let rules = environment.lockoutRules
        try spendGuess(of: kiosk, rules: rules)
        let record: PasscodeRecord?
        do { record = try context.passcodeRecord() } catch {
            // Damaged state fails closed, and tells a kiosk nothing more than a wrong PIN.
            try await unknownName(passcode, context: context)
        }
        guard record != nil else { try await unknownName(passcode, context: context) }
        do {
            let success = try await context.unlockWithPasscode(reason: "PIN pad", prompt: OneAnswer(passcode))
            if let kiosk { state.withLock { rules.returnKioskGuess(&$0.budgets[kiosk, default: KioskGuessBudget()]) } }
            return success
        } catch {
            switch error.code {
            case .passcodeLockout: throw Self.lockout(error.retryAfter)
            case .passcodeNotSet: try await unknownName(passcode, context: context)  // removed meanwhile
            default: throw Self.wrong
            }
        }
    }

    /// A guess of `kiosk`'s budget (none for a user checking their own), or its refusal.
    private func spendGuess(of kiosk: UInt32?, rules: LockoutRules) throws(AuthError) {
        guard let kiosk else { return }
        try state.withLock { (state) throws(AuthError) in try rules.spendKioskGuess(&state.budgets[kiosk, default: KioskGuessBudget()]) }
    }

    /// A name with no passcode: the work and the counting of a wrong PIN, never a success.
    private func unknownName(_ passcode: Passcode, context: AuthenticationContext) async throws(AuthError) -> Never {
        let environment = context.environment
        let key = environment.stateDirectory.path + "\u{0}" + environment.user
        if let block = state.withLock({ environment.lockoutRules.passcodeBlock($0.unknown[key] ?? AttemptCounter(), path: "") }) {
            throw Self.lockout(block.retryAfter)
        }
        _ = try? await PasscodeHasher.hash(passcode, rounds: environment.configuration.passcodeHashRounds)
        let lockout = state.withLock { state -> AuthError? in
            if state.unknown[key] == nil, state.unknown.count >= Self.maximumUnknownNames {
                state.unknown.removeValue(forKey: state.unknown.keys.first!)
            }
            let rules = environment.lockoutRules
            var counter = state.unknown[key] ?? AttemptCounter()
            if let block = rules.passcodeBlock(counter, path: "") { return block }
            let lockout = rules.recordWrongPasscode(&counter)
            state.unknown[key] = counter
            return lockout
        }
        if let lockout { throw Self.lockout(lockout.retryAfter) }
        throw Self.wrong
    }

    private static let wrong = AuthError(.authenticationFailed, "wrong user or PIN")

    private static func lockout(_ retryAfter: Double?) -> AuthError {
        let wait = Int(max(1, (retryAfter ?? 60).rounded(.up)))
        return AuthError(.passcodeLockout, "too many wrong PINs for this user; try again in \(wait) seconds", retryAfter: Double(wait))
    }
}

/// A kiosk's guesses at PINs (``LockoutRules/spendKioskGuess(_:)``).
package struct KioskGuessBudget: Sendable {
    /// Guesses taken and not yet come back (fractions come back over time).
    var spent: Double = 0
    /// When `spent` was last brought up to date, on the boot's clock.
    var at: TimeInterval = 0
    /// When the last guess was taken, on the boot's clock: past the burst, the next waits for
    /// ``LockoutRules/kioskPaceSeconds`` after it.
    var lastGuessAt: TimeInterval?
}

/// Answers the engine's one question with the PIN typed, and nothing after it: a wrong PIN
/// ends the check instead of asking again.
private final class OneAnswer: AuthPrompt {
    private let answer: Locked<Passcode?>

    init(_ passcode: Passcode) {
        answer = Locked(passcode)
    }

    func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? {
        answer.withLock { answer in
            defer { answer = nil }
            return answer
        }
    }
}
