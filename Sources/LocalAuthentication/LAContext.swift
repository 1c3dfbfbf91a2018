import FPAuthentication
import FPTerminal
import Foundation
import FPVocabulary

/// An authentication context, as on Apple platforms: check what is possible
/// with ``canEvaluatePolicy(_:error:)``, then ask for the finger with
/// ``evaluatePolicy(_:localizedReason:)``.
///
/// ```swift
/// let context = LAContext()
/// var error: NSError?
/// if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
///     let ok = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics,
///                                               localizedReason: "Log in to your account")
/// }
/// ```
///
/// Every rule (three failed matches per evaluation, lockout after five in a
/// row, the passcode as the way out, timeouts) is the engine's: a context is a
/// thin layer over `AuthenticationContext`. Which reader, state directory and
/// user it uses come from ``FPBridgeSettings``.
public final class LAContext: Sendable {
    /// fpbridge: the settings this context was created with.
    public let fpbridgeSettings: FPBridgeSettings
    private let state = Locked(State())

    private struct State {
        var fallbackTitle: String?
        var cancelTitle: String?
        var reason: String?
        var reuseDuration: TimeInterval = 0
        var interactionNotAllowed = false
        var invalidated = false
        var biometryType = LABiometryType.none
        var domainStateHash: Data?
        var resolved: Resolved?
        /// The evaluation running in `fpbridged`, for the buttons.
        var remote: ServiceEvaluator.Progress?
        /// The last success through `fpbridged`, for the reuse window (kept here, as Apple keeps it per context).
        var lastRemoteSuccess: (date: Date, policy: LAPolicy)?
    }

    /// The reader and the engine context, found once per context.
    private struct Resolved {
        let reader: (any FingerprintReader)?
        let info: ReaderInfo?
        let engine: AuthenticationContext?
        /// Why there is no engine (a damaged config.json, a malformed FPBRIDGE_READER).
        let problem: AuthError?
    }

    /// A context with ``fpbridgeDefaults``: the environment's reader, state directory and user.
    public convenience init() {
        self.init(fpbridge: LAContext.fpbridgeDefaults)
    }

    /// fpbridge: a context with its own settings.
    public init(fpbridge settings: FPBridgeSettings) {
        fpbridgeSettings = settings
    }

    // MARK: - Apple's properties

    /// The fallback button's title: nil shows "Enter Passcode", an empty string hides the button.
    /// The button appears after the first failed match.
    public var localizedFallbackTitle: String? {
        get { state.withLock { $0.fallbackTitle } }
        set { update { $0.fallbackTitle = newValue } }
    }

    /// The cancel button's title; nil shows the default.
    public var localizedCancelTitle: String? {
        get { state.withLock { $0.cancelTitle } }
        set { update { $0.cancelTitle = newValue } }
    }

    /// Why the app authenticates, for operations that take no reason of their own.
    public var localizedReason: String {
        get { state.withLock { $0.reason ?? "" } }
        set { state.withLock { $0.reason = newValue } }
    }

    /// How long a successful evaluation of this context may be reused without a new
    /// scan; at most ``LATouchIDAuthenticationMaximumAllowableReuseDuration`` (larger values are capped).
    public var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { state.withLock { $0.reuseDuration } }
        set { update { $0.reuseDuration = EvaluationAdmission.reuseWindow(newValue) } }
    }

    /// When true, an evaluation that would need the user fails with ``LAError/notInteractive``.
    public var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { update { $0.interactionNotAllowed = newValue } }
    }

    /// The kind of biometry: ``LABiometryType/touchID`` when a reader is present,
    /// ``LABiometryType/none`` otherwise. Set by ``canEvaluatePolicy(_:error:)``;
    /// ``LABiometryType/none`` before it is called, as on Apple platforms.
    public var biometryType: LABiometryType { state.withLock { $0.biometryType } }

    /// A hash over the user's enrolled fingers, taken when ``canEvaluatePolicy(_:error:)``
    /// succeeds for ``LAPolicy/deviceOwnerAuthenticationWithBiometrics`` or an
    /// evaluation succeeds by fingerprint; nil before. It changes when a finger is
    /// added or removed.
    public var evaluatedPolicyDomainState: Data? { state.withLock { $0.domainStateHash } }

    /// The newer form of ``evaluatedPolicyDomainState``.
    public var domainState: LADomainState {
        state.withLock { LADomainState(biometry: LADomainStateBiometry(biometryType: $0.biometryType, stateHash: $0.domainStateHash)) }
    }

    // MARK: - Apple's methods

    /// Whether the policy can be evaluated now, without asking the user anything.
    ///
    /// Checks, in order: a reader is present, the user has a passcode, a finger is
    /// enrolled on the reader, biometry is not locked out (for
    /// ``LAPolicy/deviceOwnerAuthentication``: a passcode is set). Sets ``biometryType``.
    /// - Parameter policy: The policy to check.
    /// - Parameter error: On return, why not, as an `NSError` in ``LAErrorDomain``:
    ///   ``LAError/biometryNotAvailable``, ``LAError/passcodeNotSet``,
    ///   ``LAError/biometryNotEnrolled``, ``LAError/biometryLockout``,
    ///   ``LAError/invalidContext``, ``LAError/stateDamaged``.
    /// - Returns: True when the policy can be evaluated.
    public func canEvaluatePolicy(_ policy: LAPolicy, error: UnsafeMutablePointer<NSError?>?) -> Bool {
        let problem = WorkerExecutor.shared.wait { await self.availabilityProblem(policy) }
            ?? LAError(.invalidContext, userInfo: [NSLocalizedDescriptionKey: "canEvaluatePolicy was called from fpbridge's own worker thread"])
        error?.pointee = problem?.nsError
        return problem == nil
    }

    /// Evaluates the policy: asks for the finger (and under
    /// ``LAPolicy/deviceOwnerAuthentication`` for the passcode when needed).
    ///
    /// - Parameter policy: The policy to evaluate.
    /// - Parameter localizedReason: Why the app asks, shown in the prompt. Must not be empty.
    /// - Returns: True; every failure throws.
    /// - Throws: ``LAError`` with ``LAError/authenticationFailed``, ``LAError/userCancel``,
    ///   ``LAError/userFallback``, ``LAError/systemCancel``, ``LAError/passcodeNotSet``,
    ///   ``LAError/biometryNotAvailable``, ``LAError/biometryNotEnrolled``,
    ///   ``LAError/biometryLockout``, ``LAError/appCancel``, ``LAError/invalidContext``,
    ///   ``LAError/biometryDisconnected``, ``LAError/notInteractive``, or one of fpbridge's
    ///   additions (``LAError/timedOut``, ``LAError/passcodeLockout``, ``LAError/readerBusy``,
    ///   ``LAError/readerTooHot``, ``LAError/readerFailure``, ``LAError/stateDamaged``,
    ///   ``LAError/invalidInput``).
    public func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        do {
            try await evaluate(policy, reason: localizedReason)
            return true
        } catch {
            throw LAError(error)
        }
    }

    /// Evaluates the policy and calls `reply` with the outcome, on a thread of
    /// fpbridge's (as Apple's calls it on a private queue).
    /// - Parameter policy: The policy to evaluate.
    /// - Parameter localizedReason: Why the app asks, shown in the prompt. Must not be empty.
    /// - Parameter reply: Called once: `(true, nil)` on success, `(false, error)` with an ``LAError`` otherwise.
    public func evaluatePolicy(_ policy: LAPolicy, localizedReason: String,
                               reply: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        Task {
            do {
                reply(try await evaluatePolicy(policy, localizedReason: localizedReason), nil)
            } catch {
                reply(false, error)
            }
        }
    }

    /// Ends the context: a running evaluation fails with ``LAError/appCancel``,
    /// every later call with ``LAError/invalidContext``.
    public func invalidate() {
        let (engine, remote) = state.withLock { state -> (AuthenticationContext?, ServiceEvaluator.Progress?) in
            state.invalidated = true
            return (state.resolved?.engine, state.remote)
        }
        engine?.invalidate()
        remote?.controls.invalidate()
    }

    // MARK: - fpbridge's additions

    /// fpbridge: presses the fallback button of a running evaluation, as a custom
    /// prompt's button would. Returns false, doing nothing, while the button is not
    /// shown (it appears after the first failed match, with a non-empty title).
    @discardableResult
    public func pressFallbackButton() -> Bool {
        if let remote = state.withLock({ $0.remote }) {
            guard remote.fallbackOffered else { return false }
            remote.controls.pressFallback()
            return true
        }
        return state.withLock { $0.resolved?.engine }?.chooseFallback() ?? false
    }

    /// fpbridge: presses the cancel button of a running evaluation, which then
    /// fails with ``LAError/userCancel``.
    public func pressCancelButton() {
        state.withLock { $0.remote }?.controls.pressCancel()
        state.withLock { $0.resolved?.engine }?.cancel(.user)
    }

    deinit {
        // Ends the engine's event stream, and with it the terminal's event printer.
        state.withLock { $0.resolved?.engine }?.invalidate()
    }

    // MARK: - Internals

    /// Sets a property here and on the engine context when there is one.
    private func update(_ change: (inout State) -> Void) {
        let engine = state.withLock { state -> AuthenticationContext? in
            change(&state)
            return state.resolved?.engine
        }
        if let engine { apply(to: engine) }
    }

    private func apply(to engine: AuthenticationContext) {
        let current = state.withLock { $0 }
        engine.fallbackTitle = current.fallbackTitle
        engine.cancelTitle = current.cancelTitle
        engine.reuseDuration = current.reuseDuration
        engine.interactionNotAllowed = current.interactionNotAllowed
        if current.invalidated { engine.invalidate() }
    }

    /// Finds the reader and builds the engine context, once.
    private func resolve() async -> Resolved {
        if let resolved = state.withLock({ $0.resolved }) { return resolved }
        let settings = fpbridgeSettings
        var reader: (any FingerprintReader)? = settings.readerInstance
        var problem = settings.readerProblem
        if reader == nil, problem == nil {
            do {
                reader = try await settings.reader.reader()
            } catch let error as ReaderError {
                if case .noReader = error {} else { problem = AuthError(error) }
            } catch {
                problem = AuthError(error)
            }
        }
        let info = await reader?.info
        var engine: AuthenticationContext?
        if problem == nil {
            do {
                let configuration = try settings.configuration ?? AuthConfiguration.load(from: settings.stateDirectory)
                engine = AuthenticationContext(environment: AuthEnvironment(
                    user: settings.user, reader: reader, stateDirectory: settings.stateDirectory, configuration: configuration))
            } catch {
                problem = AuthError(error)
            }
        }
        let resolved = Resolved(reader: reader, info: info, engine: engine, problem: problem)
        let winner = state.withLock { state -> Resolved in
            if let earlier = state.resolved { return earlier }
            state.resolved = resolved
            return resolved
        }
        if let engine = winner.engine {
            apply(to: engine)
            if winner.engine === resolved.engine, TerminalInterface.enabled(settings) {
                TerminalInterface.startPrinting(engine)
            }
        }
        return winner
    }

    /// The service's evaluator when the settings choose `fpbridged` (a shared reader object stays in-process).
    private var service: ServiceEvaluator? {
        guard let socket = fpbridgeSettings.service, fpbridgeSettings.readerInstance == nil else { return nil }
        return ServiceEvaluator(socket: socket, settings: fpbridgeSettings)
    }

    private func availabilityProblem(_ policy: LAPolicy) async -> LAError? {
        if let service {
            if state.withLock({ $0.invalidated }) { return LAError(AuthError(.invalidContext, "the context has been invalidated")) }
            do {
                let (result, hash) = try await service.availability(policy)
                state.withLock { $0.biometryType = result.biometryType == .fingerprint ? .touchID : .none }
                if let error = result.error { return LAError(error.error) }
                if policy == .deviceOwnerAuthenticationWithBiometrics { recordDomainState(hash) }
                return nil
            } catch {
                return LAError(AuthError(error))
            }
        }
        let resolved = await resolve()
        state.withLock { $0.biometryType = resolved.info == nil ? .none : .touchID }
        guard let engine = resolved.engine else {
            return LAError(resolved.problem ?? AuthError(.invalidContext, "the context could not be set up"))
        }
        let availability = engine.availability(policy.engine, reader: resolved.info)
        if let error = availability.error { return LAError(error) }
        if policy == .deviceOwnerAuthenticationWithBiometrics { recordDomainState(engine) }
        return nil
    }

    private func recordDomainState(_ engine: AuthenticationContext) {
        recordDomainState(try? engine.enrollmentStateHash())
    }

    private func recordDomainState(_ hash: String?) {
        let bytes = hash.flatMap(Hex.decode)
        state.withLock { $0.domainStateHash = bytes.map { Data($0) } }
    }

    private func evaluate(_ policy: LAPolicy, reason: String) async throws(AuthError) {
        guard !reason.isEmpty else {
            throw AuthError(.invalidInput, "localizedReason must not be empty: it tells the user why the app asks")
        }
        if let service {
            try await evaluate(policy, reason: reason, through: service)
            return
        }
        let resolved = await resolve()
        guard let engine = resolved.engine else {
            throw resolved.problem ?? AuthError(.invalidContext, "the context could not be set up")
        }
        let ui = TerminalInterface(settings: fpbridgeSettings, engine: engine, reason: reason)
        defer { ui.stop() }
        var readerOpen = false
        if let reader = resolved.reader {
            do {
                try await reader.open()
                readerOpen = true
            } catch ReaderError.alreadyOpen {
                // A reader instance shared between contexts, open for another one's evaluation.
                throw AuthError(.readerBusy, "the reader is in use by another evaluation")
            } catch {
                if policy == .deviceOwnerAuthenticationWithBiometrics || !ReaderUnavailability.covers(error) {
                    throw AuthError(error)
                }
            }
        }
        do {
            let success: AuthSuccess
            if resolved.reader != nil && !readerOpen {
                // The reader cannot be opened now; the device-owner policy still has the passcode.
                success = try await engine.unlockWithPasscode(reason: reason, prompt: ui.prompt)
            } else {
                success = try await engine.evaluate(policy.engine, reason: reason, prompt: ui.prompt)
            }
            if readerOpen { try? await resolved.reader?.close() }
            if success.method == .fingerprint { recordDomainState(engine) }
        } catch {
            if readerOpen { try? await resolved.reader?.close() }
            throw error
        }
    }

    /// One evaluation in `fpbridged`: one at a time per context, the reuse window kept here.
    private func evaluate(_ policy: LAPolicy, reason: String, through service: ServiceEvaluator) async throws(AuthError) {
        let progress = ServiceEvaluator.Progress()
        let start = state.withLock { state -> Result<Bool, AuthError> in
            switch EvaluationAdmission.decide(invalidated: state.invalidated, evaluating: state.remote != nil, policy: policy,
                                              last: state.lastRemoteSuccess.map { ($0.policy, $0.date) },
                                              reuseWindow: state.reuseDuration, now: Date()) {
            case .refused(let error): return .failure(error)
            case .reuse: return .success(true)
            case .start:
                state.remote = progress
                return .success(false)
            }
        }
        if try start.get() { return }
        defer { state.withLock { $0.remote = nil } }
        let current = state.withLock { $0 }
        do {
            let success = try await withTaskCancellationHandler {
                try await service.evaluate(policy, reason: reason, fallbackTitle: current.fallbackTitle,
                                           cancelTitle: current.cancelTitle,
                                           interactionNotAllowed: current.interactionNotAllowed, progress: progress)
            } onCancel: {
                progress.controls.invalidate()
            }
            state.withLock { $0.lastRemoteSuccess = (Date(), policy) }
            if success.method == .fingerprint, let (result, hash) = try? await service.availability(.deviceOwnerAuthenticationWithBiometrics),
               result.error == nil {
                recordDomainState(hash)
            }
        } catch {
            throw AuthError(error)
        }
    }
}
