import FPKeyFormats
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
/// thin layer over the engine in `fpbridged`, or in this process with
/// `LocalAuthenticationInProcess`. Which service, reader, state directory and
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
        /// The in-process engine's evaluator, made on first use.
        var local: (any InProcessEvaluator)?
        /// The evaluation running in `fpbridged`, for the buttons.
        var remote: ServiceEvaluator.Progress?
        /// The last success through `fpbridged`, for the reuse window (kept here, as Apple keeps it per context).
        var lastRemoteSuccess: (date: Date, policy: LAPolicy)?
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
        let (local, remote) = state.withLock { state -> ((any InProcessEvaluator)?, ServiceEvaluator.Progress?) in
            state.invalidated = true
            return (state.local, state.remote)
        }
        local?.invalidate()
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
        return state.withLock { $0.local }?.pressFallback() ?? false
    }

    /// fpbridge: presses the cancel button of a running evaluation, which then
    /// fails with ``LAError/userCancel``.
    public func pressCancelButton() {
        state.withLock { $0.remote }?.controls.pressCancel()
        state.withLock { $0.local }?.pressCancel()
    }

    deinit {
        // Ends the engine's event stream, and with it the terminal's event printer.
        state.withLock { $0.local }?.invalidate()
    }

    // MARK: - Internals

    /// Sets a property here and on the in-process evaluator when there is one.
    private func update(_ change: (inout State) -> Void) {
        let (local, properties) = state.withLock { state -> ((any InProcessEvaluator)?, ContextProperties) in
            change(&state)
            return (state.local, Self.properties(state))
        }
        local?.apply(properties)
    }

    private static func properties(_ state: State) -> ContextProperties {
        ContextProperties(fallbackTitle: state.fallbackTitle, cancelTitle: state.cancelTitle, reuseDuration: state.reuseDuration,
                          interactionNotAllowed: state.interactionNotAllowed, invalidated: state.invalidated)
    }

    /// The in-process evaluator, made once per context; fails naming the product when there is no engine.
    private func local() throws(AuthError) -> any InProcessEvaluator {
        guard let engine = fpbridgeSettings.engine else { throw FPBridgeEngine.missing }
        let settings = fpbridgeSettings
        let (local, made, properties) = state.withLock { state -> (any InProcessEvaluator, Bool, ContextProperties) in
            if let existing = state.local { return (existing, false, Self.properties(state)) }
            let made = engine.makeEvaluator(settings)
            state.local = made
            return (made, true, Self.properties(state))
        }
        if made { local.apply(properties) }
        return local
    }

    /// The service's evaluator when the settings choose `fpbridged` (a shared reader object stays in-process).
    private var service: ServiceEvaluator? {
        guard let socket = fpbridgeSettings.service, fpbridgeSettings.engine?.readerInstance == nil else { return nil }
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
                return LAError(AuthError(service: error))
            }
        }
        let local: any InProcessEvaluator
        do { local = try self.local() } catch { return LAError(error) }
        let (readerPresent, problem, hash) = await local.availability(policy.engine)
        state.withLock { $0.biometryType = readerPresent ? .touchID : .none }
        if let problem { return LAError(problem) }
        if policy == .deviceOwnerAuthenticationWithBiometrics { recordDomainState(hash) }
        return nil
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
        let (success, hash) = try await local().evaluate(policy.engine, reason: reason)
        if success.method == .fingerprint { recordDomainState(hash) }
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
            throw AuthError(service: error)
        }
    }
}
