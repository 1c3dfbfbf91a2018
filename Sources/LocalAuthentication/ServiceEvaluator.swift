internal import FPLocalAPI
internal import FPServiceClient
import FPTerminal
import FPVocabulary
import Foundation
import Synchronization

/// ``LAContext``'s way through `fpbridged`: the same checks and evaluations, with the rules,
/// the counters and the readers in the service, below the app.
struct ServiceEvaluator: Sendable {
    let socket: String
    let settings: FPBridgeSettings

    /// What an evaluation in the service reports back to its context.
    final class Progress: Sendable {
        let controls = OperationControls()
        private let offered = Atomic<Bool>(false)

        /// Whether the service has shown the fallback button (after the first failed match).
        var fallbackOffered: Bool { offered.load(ordering: .acquiring) }

        func saw(_ event: AuthEvent) {
            if case .fallbackOffered = event { offered.store(true, ordering: .releasing) }
        }
    }

    /// Can the policy be evaluated, and the enrollment state hash when it can.
    func availability(_ policy: LAPolicy) async throws -> (AvailabilityResult, String?) {
        try await ServiceClient.with(socket: socket) { client in
            let request = try await target(CanEvaluateRequest(policy: policy.engine.rawValue), client)
            let result: AvailabilityResult = try await client.post("can-evaluate", request)
            guard result.error == nil, policy == .deviceOwnerAuthenticationWithBiometrics else { return (result, nil) }
            let report: StatusReport = try await client.get("status", query: [
                "user": request.user, "reader": request.reader, "stateDirectory": request.stateDirectory])
            return (result, report.enrollmentStateHash)
        }
    }

    /// Runs the policy in the service, with the app's titles, prompt and terminal.
    func evaluate(_ policy: LAPolicy, reason: String, fallbackTitle: String?, cancelTitle: String?,
                  interactionNotAllowed: Bool, progress: Progress) async throws -> AuthSuccess {
        let controls = progress.controls
        let ui = TerminalInterface(settings: settings, reason: reason, interactionNotAllowed: interactionNotAllowed,
                                   fallback: { controls.pressFallback() }, cancel: { controls.pressCancel() })
        defer { ui.stop() }
        let printing = TerminalInterface.enabled(settings)
        let handler = Handler(prompt: ui.prompt, progress: progress, printing: printing,
                              fallbackKey: printing && isatty(STDIN_FILENO) == 1)
        return try await ServiceClient.with(socket: socket) { client in
            var request = try await target(EvaluationRequest(operation: .evaluate), client)
            request.policy = policy.engine.rawValue
            request.reason = reason
            request.fallbackTitle = fallbackTitle
            request.cancelTitle = cancelTitle
            request.interactionNotAllowed = interactionNotAllowed
            let value = try await client.stream("evaluations", request, controls: controls, handler: handler)
            do { return try value.decode(as: EvaluationResult.self).success } catch {
                throw AuthError(.readerFailure, "the fpbridge service sent a result this client cannot read", cause: .serviceAnswer)
            }
        }
    }

    /// The target fields: a service in test mode gets the settings' reader, state directory and
    /// user; a system service uses its own state, its own readers and the caller's user.
    private func target<Request: TargetedRequest>(_ request: Request, _ client: ServiceClient) async throws -> Request {
        var request = request
        let info: JSONValue = try await client.get("service")
        let testMode: Bool = if case .object(let fields) = info, fields["testMode"] == .bool(true) { true } else { false }
        if settings.reader != .auto { request.reader = settings.reader.description }
        if testMode {
            request.stateDirectory = settings.stateDirectory.path.hasPrefix("/")
                ? settings.stateDirectory.path
                : FileManager.default.currentDirectoryPath + "/" + settings.stateDirectory.path
            request.user = settings.user
        } else {
            if case .fake = settings.reader {
                throw AuthError(.invalidInput, "the fake reader needs fpbridged in test mode, or FPBRIDGE_SERVICE=off")
            }
            if settings.user != FPBridgeSettings.loginUser(ProcessInfo.processInfo.environment) { request.user = settings.user }
        }
        return request
    }

    private struct Handler: StreamHandler {
        let prompt: any AuthPrompt
        let progress: Progress
        let printing: Bool
        let fallbackKey: Bool

        func event(_ event: AuthEvent) {
            progress.saw(event)
            if printing { FileHandle.standardError.write(Data((EventPrinter.text(event, fallbackKey: fallbackKey) + "\n").utf8)) }
        }

        func enrollment(_ progress: EnrollmentProgress) {}

        func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? {
            await prompt.passcode(reason: reason, attemptsLeftBeforeLockout: attemptsLeftBeforeLockout)
        }
    }
}

extension AuthError {
    /// A call to the service failed: its client throws `AuthError` for whatever the service or
    /// the socket said, so what else arrives is a cancellation or an unforeseen failure.
    init(service error: any Error) {
        switch error {
        case let error as AuthError: self = error
        case is CancellationError: self = AuthError(.systemCancel, "the operation was cancelled")
        default: self = AuthError(.readerFailure, "\(error)")
        }
    }
}
