import FPAuthentication
import FPTerminal
import Foundation
import LocalAuthentication

/// One context's evaluations in this process: the reader and the engine context, found once on
/// first use, and the terminal's interface around each evaluation.
final class EngineEvaluator: InProcessEvaluator {
    private let settings: FPBridgeSettings
    private let readerInstance: (any FingerprintReader)?
    private let configuration: AuthConfiguration?
    private let state = Locked(State())

    private struct State {
        var properties = ContextProperties()
        var resolved: Resolved?
    }

    /// The reader and the engine context, found once.
    private struct Resolved {
        let reader: (any FingerprintReader)?
        let info: ReaderInfo?
        let engine: AuthenticationContext?
        /// Why there is no engine (a damaged config.json, a malformed FPBRIDGE_READER).
        let problem: AuthError?
    }

    init(settings: FPBridgeSettings, readerInstance: (any FingerprintReader)?, configuration: AuthConfiguration?) {
        self.settings = settings
        self.readerInstance = readerInstance
        self.configuration = configuration
    }

    func apply(_ properties: ContextProperties) {
        let engine = state.withLock { state in
            state.properties = properties
            return state.resolved?.engine
        }
        if let engine { apply(properties, to: engine) }
    }

    private func apply(_ properties: ContextProperties, to engine: AuthenticationContext) {
        engine.fallbackTitle = properties.fallbackTitle
        engine.cancelTitle = properties.cancelTitle
        engine.reuseDuration = properties.reuseDuration
        engine.interactionNotAllowed = properties.interactionNotAllowed
        if properties.invalidated { engine.invalidate() }
    }

    func pressFallback() -> Bool { state.withLock { $0.resolved?.engine }?.chooseFallback() ?? false }

    func pressCancel() { state.withLock { $0.resolved?.engine }?.cancel(.user) }

    func invalidate() { state.withLock { $0.resolved?.engine }?.invalidate() }

    func availability(_ policy: AuthPolicy) async -> (readerPresent: Bool, problem: AuthError?, stateHash: String?) {
        let resolved = await resolve()
        guard let engine = resolved.engine else {
            return (resolved.info != nil, resolved.problem ?? AuthError(.invalidContext, "the context could not be set up"), nil)
        }
        let availability = engine.availability(policy, reader: resolved.info)
        return (resolved.info != nil, availability.error, availability.error == nil ? try? engine.enrollmentStateHash() : nil)
    }

    func evaluate(_ policy: AuthPolicy, reason: String) async throws(AuthError) -> (AuthSuccess, stateHash: String?) {
        let resolved = await resolve()
        guard let engine = resolved.engine else {
            throw resolved.problem ?? AuthError(.invalidContext, "the context could not be set up")
        }
        let ui = TerminalInterface(settings: settings, reason: reason, interactionNotAllowed: engine.interactionNotAllowed,
                                   fallback: { engine.chooseFallback() }, cancel: { engine.cancel(.user) })
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
                if policy == .biometrics || !ReaderUnavailability.covers(error) {
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
                success = try await engine.evaluate(policy, reason: reason, prompt: ui.prompt)
            }
            if readerOpen { try? await resolved.reader?.close() }
            return (success, success.method == .fingerprint ? try? engine.enrollmentStateHash() : nil)
        } catch {
            if readerOpen { try? await resolved.reader?.close() }
            throw error
        }
    }

    /// Finds the reader and builds the engine context, once.
    private func resolve() async -> Resolved {
        if let resolved = state.withLock({ $0.resolved }) { return resolved }
        var reader: (any FingerprintReader)? = readerInstance
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
                let configuration = try configuration ?? AuthConfiguration.load(from: settings.stateDirectory)
                engine = AuthenticationContext(environment: AuthEnvironment(
                    user: settings.user, reader: reader, stateDirectory: settings.stateDirectory, configuration: configuration))
            } catch {
                problem = AuthError(error)
            }
        }
        let resolved = Resolved(reader: reader, info: info, engine: engine, problem: problem)
        let (winner, properties) = state.withLock { state -> (Resolved, ContextProperties) in
            if let earlier = state.resolved { return (earlier, state.properties) }
            state.resolved = resolved
            return (resolved, state.properties)
        }
        if let engine = winner.engine {
            apply(properties, to: engine)
            if winner.engine === resolved.engine, TerminalInterface.enabled(settings) {
                // Prints the engine's events on standard error until the engine is invalidated.
                _ = EventPrinter.start(for: engine.events, fallbackKey: isatty(STDIN_FILENO) == 1) { line in
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                }
            }
        }
        return winner
    }
}

/// Reader failures that mean "no reader now" rather than "the reader is broken".
enum ReaderUnavailability {
    static func covers(_ error: any Error) -> Bool {
        switch error as? ReaderError {
        case .noReader, .permissionDenied, .removed: true
        default: false
        }
    }
}
