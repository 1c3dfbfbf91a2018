import FPCore
import FPReaders
import FPStore
import FoundationEssentials

/// One authentication session, in the image of Apple's `LAContext`.
///
/// Every fingerprint match goes through a context, and with it through the
/// attempt counters: at most ``AuthConfiguration/maxFailedMatchesPerEvaluation``
/// failures per evaluation, lockout after ``AuthConfiguration/biometricLockoutThreshold``
/// consecutive failures across evaluations and processes, passcode lockout
/// with escalating waits. A context evaluates one policy at a time.
public final class AuthenticationContext: Sendable {
    /// Who, which reader, where state lives, and the numbers.
    public let environment: AuthEnvironment
    /// What a front end shows while an evaluation runs. Finishes on ``invalidate()``.
    public let events: AsyncStream<AuthEvent>
    private let eventSink: AsyncStream<AuthEvent>.Continuation
    private let state = Locked(State())
    let interruption = ScanInterruption()

    private struct State {
        var fallbackTitle: String?
        var cancelTitle: String?
        var reuseDuration: TimeInterval = 0
        var interactionNotAllowed = false
        var invalidated = false
        var running: Task<AuthSuccess, any Error>?
        var cancelReason: CancelReason?
        var lastSuccess: (date: Date, policy: AuthPolicy, success: AuthSuccess)?
        var biometryType = BiometryType.none
    }

    /// The longest reuse window allowed, as on Apple's platforms (`EvaluationAdmission.maximumReuseDuration`, FPVocabulary).
    public static let maximumReuseDuration: TimeInterval = EvaluationAdmission.maximumReuseDuration
    /// The fallback title used when none is set.
    public static let defaultFallbackTitle = "Enter Passcode"

    /// A context for one user on one reader (or none).
    public init(environment: AuthEnvironment) {
        self.environment = environment
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    // MARK: - Settings (Apple's LAContext properties)

    /// The fallback button's title: nil shows ``defaultFallbackTitle``, "" hides the button.
    public var fallbackTitle: String? {
        get { state.withLock { $0.fallbackTitle } }
        set { state.withLock { $0.fallbackTitle = newValue } }
    }

    /// The cancel button's title (nil: the front end's default).
    public var cancelTitle: String? {
        get { state.withLock { $0.cancelTitle } }
        set { state.withLock { $0.cancelTitle = newValue } }
    }

    /// How long a success may be reused without a new scan, capped at 300 s.
    public var reuseDuration: TimeInterval {
        get { state.withLock { $0.reuseDuration } }
        set { state.withLock { $0.reuseDuration = EvaluationAdmission.reuseWindow(newValue) } }
    }

    /// When true, an evaluation that would need the user fails with `AuthErrorCode.notInteractive`.
    public var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { state.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// The biometry kind; meaningful only after ``canEvaluate(_:)``.
    public var biometryType: BiometryType { state.withLock { $0.biometryType } }

    /// Apple's `evaluatedPolicyDomainState`: a hash over the user's enrolled
    /// prints that changes whenever one is added or removed; nil with none.
    public func enrollmentStateHash() throws(AuthError) -> String? {
        do { return try environment.prints.enrollmentStateHash(user: environment.user) } catch { throw AuthError(error) }
    }

    // MARK: - Availability

    /// Whether the policy can be evaluated now, without touching the user.
    /// Checks, in order: reader present, passcode set, print enrolled, not locked out.
    /// Also sets ``biometryType``.
    public func canEvaluate(_ policy: AuthPolicy) async -> Availability {
        availability(policy, reader: await environment.reader?.info)
    }

    /// ``canEvaluate(_:)`` for a caller that already holds the reader's description:
    /// synchronous, it reads state files only.
    package func availability(_ policy: AuthPolicy, reader info: ReaderInfo?) -> Availability {
        let kind: BiometryType = info == nil ? .none : .fingerprint
        state.withLock { $0.biometryType = kind }
        let error: AuthError?
        if state.withLock({ $0.invalidated }) {
            error = AuthError(.invalidContext, "the context has been invalidated")
        } else {
            switch policy {
            case .biometrics:
                error = biometricProblem(options: BiometricOptions(), requirePasscode: true, reader: info?.identity)
                    ?? Self.resting(info)
            case .deviceOwner: error = passcodeProblem()
            }
        }
        return Availability(biometryType: kind, scanType: info?.scanType, error: error)
    }

    /// A reader that libfprint holds as too hot cannot scan now: biometrics is unavailable until
    /// it has cooled (the device-owner policy still is, through the passcode).
    private static func resting(_ info: ReaderInfo?) -> AuthError? {
        guard let heat = info?.heat, heat.hot else { return nil }
        return AuthError(reader: .tooHot(usableInSeconds: heat.usableInSeconds))
    }

    // MARK: - Evaluation

    /// Evaluates a policy: scans, counts, falls back to the passcode where the policy allows.
    public func evaluate(_ policy: AuthPolicy, reason: String, prompt: any AuthPrompt,
                         options: BiometricOptions = BiometricOptions()) async throws(AuthError) -> AuthSuccess {
        try await run(policy: policy) {
            try await self.runPolicy(policy, reason: reason, prompt: prompt, options: options)
        }
    }

    /// ``evaluate(_:reason:prompt:options:)`` that never returns a success reused
    /// from an earlier evaluation: a key is released only by an evaluation of its own.
    func evaluateWithoutReuse(_ policy: AuthPolicy, reason: String, prompt: any AuthPrompt,
                              options: BiometricOptions) async throws(AuthError) -> AuthSuccess {
        try await run(policy: nil) {
            try await self.runPolicy(policy, reason: reason, prompt: prompt, options: options)
        }
    }

    /// A fingerprint check of the user with every counter and lockout rule of
    /// the biometrics policy, but without requiring a passcode to be set
    /// (`fpbridge verify`). A locked-out user is refused without a scan.
    public func verifyFinger(reason: String, options: BiometricOptions = BiometricOptions()) async throws(AuthError) -> AuthSuccess {
        try await run(policy: nil) {
            try await BiometricSession(context: self, options: options, scope: .verify(requirePasscode: false)).run()
        }
    }

    /// Finds who is at the reader among every user enrolled on it. Counts failures per reader.
    public func identify(reason: String, options: BiometricOptions = BiometricOptions()) async throws(AuthError) -> AuthSuccess {
        try await run(policy: nil) {
            try await BiometricSession(context: self, options: options, scope: .identify).run()
        }
    }

    /// The recovery flow as one call: when biometry is locked out, asks for the
    /// passcode, which unlocks it; then runs the biometric evaluation again.
    public func recoverAndEvaluate(reason: String, prompt: any AuthPrompt,
                                   options: BiometricOptions = BiometricOptions()) async throws(AuthError) -> AuthSuccess {
        try await run(policy: .biometrics) {
            if self.lockoutProblem(.user(self.environment.user)) != nil {
                _ = try await PasscodeSession(context: self, prompt: prompt, reason: reason).run()
            }
            return try await BiometricSession(context: self, options: options, scope: .verify(requirePasscode: true)).run()
        }
    }

    /// Asks for the passcode only; a correct one ends biometric lockout (`fpbridge unlock`).
    public func unlockWithPasscode(reason: String, prompt: any AuthPrompt) async throws(AuthError) -> AuthSuccess {
        try await run(policy: nil) {
            try await PasscodeSession(context: self, prompt: prompt, reason: reason).run()
        }
    }

    /// Presses the fallback button while a fingerprint prompt is open: the current scan
    /// ends and the evaluation goes on as the fallback leads (the passcode under the
    /// device-owner policy, `userFallback` otherwise). Returns false, doing nothing,
    /// unless the button is shown (after the first failed match, with a non-empty title).
    @discardableResult
    public func chooseFallback() -> Bool {
        interruption.choose()
    }

    /// Stops a running evaluation, which then fails with the reason's error.
    public func cancel(_ reason: CancelReason) {
        let task = state.withLock { state -> Task<AuthSuccess, any Error>? in
            if state.cancelReason == nil { state.cancelReason = reason }
            return state.running
        }
        task?.cancel()
    }

    /// Ends the context: a running evaluation fails with `appCancel`, any later use with `invalidContext`.
    public func invalidate() {
        let task = state.withLock { state -> Task<AuthSuccess, any Error>? in
            state.invalidated = true
            if state.cancelReason == nil { state.cancelReason = .app }
            return state.running
        }
        task?.cancel()
        eventSink.finish()
    }

    // MARK: - Internals shared with the sessions

    func emit(_ event: AuthEvent) {
        eventSink.yield(event)
    }

    var effectiveFallbackTitle: String? {
        let title = fallbackTitle
        if title == "" { return nil }
        return title ?? Self.defaultFallbackTitle
    }

    func counter(_ scope: CounterScope) -> AttemptCounter {
        environment.counters.counter(for: scope)
    }

    /// Runs a counter transaction that records a decision for `scope`; a counter that cannot
    /// be written ends the evaluation as locked out (``LockoutRules/unrecordable(_:scope:passcode:)``).
    func recording<T>(_ scope: CounterScope, passcode: Bool, _ body: (inout CounterSet) throws -> T) throws -> T {
        do {
            return try environment.counters.transaction(body)
        } catch let failure as CounterWriteFailure {
            throw LockoutRules.unrecordable(failure, scope: scope, passcode: passcode)
        }
    }

    /// Makes sure the scope's counter file is in place at its fixed size before the user is
    /// asked for anything: on a full disk the file cannot be made, and the evaluation is
    /// refused before a scan rather than after it.
    func reserveCounter(_ scope: CounterScope, passcode: Bool) throws {
        guard !environment.counters.isReserved(scope) else { return }
        try recording(scope, passcode: passcode) { $0.reserve(scope) }
    }

    func passcodeRecord() throws(AuthError) -> PasscodeRecord? {
        do { return try environment.passcodes.record(user: environment.user) } catch { throw AuthError(error) }
    }

    /// Why biometrics cannot run now, in the spec's order; nil when it can.
    func biometricProblem(options: BiometricOptions, requirePasscode: Bool) async -> AuthError? {
        biometricProblem(options: options, requirePasscode: requirePasscode, reader: await environment.reader?.info.identity)
    }

    /// The same, with the reader's identity known (nil: no reader).
    func biometricProblem(options: BiometricOptions, requirePasscode: Bool, reader identity: ReaderIdentity?) -> AuthError? {
        guard let identity else {
            return AuthError(.biometryNotAvailable, "no fingerprint reader is available")
        }
        if requirePasscode, let problem = passcodeSetProblem() { return problem }
        do {
            _ = try Gallery.verification(environment, reader: identity, fingers: options.fingers)
        } catch {
            return AuthError(error)
        }
        return lockoutProblem(.user(environment.user))
    }

    /// Why biometry may not scan for the scope now: a reader's lockout, or a user's lockout and
    /// iOS's rules on when the password is needed again.
    func lockoutProblem(_ scope: CounterScope) -> AuthError? {
        let path = environment.counters.path(for: scope)
        switch scope {
        case .user(let user):
            return environment.lockoutRules.userBlock(counter(scope), times: environment.counters.times(user: user), user: user, path: path)
        case .reader:
            return environment.lockoutRules.biometricBlock(counter(scope), scope: scope, path: path)
        }
    }

    /// The failure lockout alone, without iOS's time rules: what a first passcode must not lift.
    func counterLockoutProblem(_ scope: CounterScope) -> AuthError? {
        environment.lockoutRules.biometricBlock(counter(scope), scope: scope, path: environment.counters.path(for: scope))
    }

    /// Why no passcode can be checked: none set, or a damaged record.
    package func passcodeSetProblem() -> AuthError? {
        do {
            if try passcodeRecord() == nil {
                return AuthError(.passcodeNotSet, "no passcode is set for \(environment.user)")
            }
            return nil
        } catch {
            return error
        }
    }

    /// Why the passcode cannot be used now: none set, a damaged record, or a
    /// damaged counter (which refuses the passcode until it is repaired).
    func passcodeProblem() -> AuthError? {
        if let problem = passcodeSetProblem() { return problem }
        let scope = CounterScope.user(environment.user)
        let counter = counter(scope)
        return counter.unusable ? environment.lockoutRules.passcodeBlock(counter, path: environment.counters.path(for: scope)) : nil
    }

    private func runPolicy(_ policy: AuthPolicy, reason: String, prompt: any AuthPrompt,
                           options: BiometricOptions) async throws -> AuthSuccess {
        switch policy {
        case .biometrics:
            return try await BiometricSession(context: self, options: options, scope: .verify(requirePasscode: true)).run()
        case .deviceOwner:
            if let problem = passcodeProblem() { throw problem }
            if await biometricProblem(options: options, requirePasscode: false) == nil {
                do {
                    return try await BiometricSession(context: self, options: options, scope: .verify(requirePasscode: false),
                                                      fallbackIsPasscode: true).run()
                } catch {
                    // The device-owner policy falls to the passcode, never stops at a locked reader,
                    // nor at one that became unavailable meanwhile (too hot, pulled out), as iOS
                    // falls to the passcode when biometry is unavailable. (A reader's own errors
                    // arrive untranslated here, hence the mapping.)
                    let passcodeFollows: [AuthErrorCode] = [.userFallback, .authenticationFailed, .biometryLockout,
                                                            .readerTooHot, .biometryNotAvailable, .biometryDisconnected]
                    guard passcodeFollows.contains(AuthError(error).code) else { throw error }
                }
            }
            return try await PasscodeSession(context: self, prompt: prompt, reason: reason).run()
        }
    }

    /// Runs one evaluation: one at a time, honouring invalidation, reuse and cancellation.
    private func run(policy: AuthPolicy?, _ body: @escaping @Sendable () async throws -> AuthSuccess) async throws(AuthError) -> AuthSuccess {
        let now = Date()
        enum Start { case refused(AuthError), reused(AuthSuccess), started(Task<AuthSuccess, any Error>) }
        let start: Start = state.withLock { state in
            switch EvaluationAdmission.decide(invalidated: state.invalidated, evaluating: state.running != nil, policy: policy,
                                              last: state.lastSuccess.map { ($0.policy, $0.date) },
                                              reuseWindow: state.reuseDuration, now: now) {
            case .refused(let error): return .refused(error)
            case .reuse:
                // A reused success is answered here and now: it starts no task and never touches
                // `running`, which belongs to the one evaluation that is really under way.
                let last = state.lastSuccess!.success
                return .reused(AuthSuccess(method: .reused, user: last.user, finger: last.finger))
            case .start: break
            }
            state.cancelReason = nil
            interruption.reset()
            let task = Task { try await body() }
            state.running = task
            return .started(task)
        }
        let task: Task<AuthSuccess, any Error>
        switch start {
        case .refused(let error): throw error
        case .reused(let success): return success
        case .started(let started): task = started
        }
        do {
            let success = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                self.cancel(.system)
            }
            state.withLock { state in
                state.running = nil
                if let policy { state.lastSuccess = (Date(), policy, success) }
            }
            return success
        } catch {
            let reason = state.withLock { state -> CancelReason? in
                state.running = nil
                return state.cancelReason
            }
            throw CancelReason.outcome(error, reason: reason)
        }
    }
}
