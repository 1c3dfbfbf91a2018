import Foundation
import FPVocabulary

/// fpbridge: the engine that runs evaluations in this process, for settings that choose no
/// `fpbridged` (the fake reader in development, `FPBRIDGE_SERVICE=off`).
///
/// This module has none: it links neither libfprint nor GLib. The
/// `LocalAuthenticationInProcess` product makes one (`FPBridgeEngine.inProcess()`), to set as
/// ``FPBridgeSettings/engine``.
public struct FPBridgeEngine: Sendable {
    /// Makes one context's evaluator.
    package let makeEvaluator: @Sendable (FPBridgeSettings) -> any InProcessEvaluator
    /// The engine's reader object, when one is shared: kept in-process even when a service is chosen.
    package var readerInstance: (any Sendable)?
    /// The engine's limits and timeouts (an `AuthConfiguration`), nil to read them from the state directory.
    package var configuration: (any Sendable)?

    package init(readerInstance: (any Sendable)? = nil, configuration: (any Sendable)? = nil,
                 makeEvaluator: @escaping @Sendable (FPBridgeSettings) -> any InProcessEvaluator) {
        self.readerInstance = readerInstance
        self.configuration = configuration
        self.makeEvaluator = makeEvaluator
    }

    /// Why an evaluation cannot run here: the settings choose no service and there is no engine.
    static let missing = AuthError(.notSupported, """
        this program's LocalAuthentication has no in-process engine, and its settings choose no fpbridged \
        (FPBRIDGE_SERVICE=off, a fake reader or FPBRIDGE_STATE_DIR, or no system service): start fpbridged, \
        or add the LocalAuthenticationInProcess product and set LAContext.fpbridgeDefaults.engine = .inProcess()
        """)
}

/// What a context's properties are, for the in-process engine.
package struct ContextProperties: Sendable {
    package var fallbackTitle: String?
    package var cancelTitle: String?
    package var reuseDuration: TimeInterval = 0
    package var interactionNotAllowed = false
    package var invalidated = false

    package init(fallbackTitle: String? = nil, cancelTitle: String? = nil, reuseDuration: TimeInterval = 0,
                 interactionNotAllowed: Bool = false, invalidated: Bool = false) {
        self.fallbackTitle = fallbackTitle
        self.cancelTitle = cancelTitle
        self.reuseDuration = reuseDuration
        self.interactionNotAllowed = interactionNotAllowed
        self.invalidated = invalidated
    }
}

/// One ``LAContext``'s evaluations in this process (LocalAuthenticationInProcess's engine).
package protocol InProcessEvaluator: Sendable {
    /// Whether a reader is present, why the policy cannot be evaluated now (nil: it can), and
    /// the enrollment state hash when it can be evaluated by fingerprint.
    func availability(_ policy: AuthPolicy) async -> (readerPresent: Bool, problem: AuthError?, stateHash: String?)
    /// Evaluates the policy; returns the success and, after a fingerprint match, the enrollment state hash.
    func evaluate(_ policy: AuthPolicy, reason: String) async throws(AuthError) -> (AuthSuccess, stateHash: String?)
    /// The context's properties changed (also called once when the evaluator is made).
    func apply(_ properties: ContextProperties)
    /// Presses the fallback button; false while it is not shown.
    func pressFallback() -> Bool
    /// Presses the cancel button.
    func pressCancel()
    /// Ends the evaluator (the context is invalidated or gone).
    func invalidate()
}
