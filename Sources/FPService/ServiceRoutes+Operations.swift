import FPAuthentication
import FPLocalAPIEngine
import Foundation
import Hummingbird
import NIOCore

extension ServiceRoutes {
    func evaluation(_ request: Request, _ caller: Caller, _ channel: any Channel) async throws -> Response {
        let body = try await JSONBodies.decode(EvaluationRequest.self, from: request)
        if body.operation == .identifyAndProve { return try await identifyAndProve(body, caller, channel) }
        guard body.proof == nil else { throw ServiceRefusal.badRequest("'proof' is for identify-and-prove only") }
        let purpose: RequestTarget.Purpose = switch body.operation {
        case .identify: .identify
        case .identifyAndProve: .identifyAndProve
        case .unlock: .checkPasscode
        case .evaluate, .recover, .verify: .evaluate
        }
        let target = try RequestTarget(body, caller: caller, service: service, purpose: purpose)
        let configuration = try Self.scanConfiguration(body, target)
        let policy = try Self.policy(body.policy)
        let reason = body.reason ?? "Authenticate"
        let options = BiometricOptions(fingers: body.fingers.map(Set.init), maxFailedMatches: body.attempts,
                                       claimedUser: try Self.claimedUser(body))
        let needsReader = [.verify, .identify].contains(body.operation)
        return try stream.response(caller: caller, channel: channel) { operation, send in
            defer { readers.claims.disarm(operation) }
            // The reader is taken for the scans only: an unlock, a recovery's passcode and the
            // device-owner fallback's hold none while their prompt waits.
            let context = try await evaluationContext(body, target, required: needsReader, configuration: configuration,
                                                      operation: operation, arming: body.operation == .identify)
            let success = try await Self.forwardingEvents(of: context, to: send) {
                switch body.operation {
                case .evaluate: try await context.evaluate(policy, reason: reason, prompt: operation.prompt, options: options)
                case .recover: try await context.recoverAndEvaluate(reason: reason, prompt: operation.prompt, options: options)
                case .verify: try await context.verifyFinger(reason: reason, options: options)
                case .identify, .identifyAndProve: try await context.identify(reason: reason, options: options)
                case .unlock: try await context.unlockWithPasscode(reason: reason, prompt: operation.prompt)
                }
            }
            return try JSONValue(encoding: EvaluationResult(success))
        }
    }

    /// The request's `claimedUser`, checked: for an identification only, and a valid user name.
    static func claimedUser(_ body: EvaluationRequest) throws -> String? {
        guard let claimed = body.claimedUser else { return nil }
        guard [.identify, .identifyAndProve].contains(body.operation) else {
            throw ServiceRefusal.badRequest("'claimedUser' is for identify and identify-and-prove only; a verify names its 'user'")
        }
        do { try PathComponent.validateUser(claimed) } catch {
            throw ServiceRefusal.badRequest("claimedUser: \(error)")
        }
        return claimed
    }

    /// The engine context of an evaluation request, attached to its operation (for the buttons),
    /// with the request's titles and its interaction setting. It takes the reader through a turn,
    /// for the scans only (``ServiceReaderTurn``).
    /// `arming`: an identification, recorded as armed on its reader (``KioskReaderClaims``) until
    /// the caller disarms it; refused while an administrator enrolls at that reader.
    func evaluationContext(_ body: EvaluationRequest, _ target: RequestTarget, required: Bool, configuration: AuthConfiguration,
                           operation: Operation, arming: Bool = false) async throws -> AuthenticationContext {
        let turn = try await readers.turn(target, required: required, wait: body.wait ?? true, timeout: configuration.scanTimeoutSeconds)
        if arming, let turn { try readers.claims.arm(operation, on: turn.identity) }
        let context = context(target, turn: turn, configuration: configuration)
        context.fallbackTitle = body.fallbackTitle
        context.cancelTitle = body.cancelTitle
        context.interactionNotAllowed = body.interactionNotAllowed ?? false
        operation.attach(context)
        return context
    }

    func enrollment(_ request: Request, _ caller: Caller, _ channel: any Channel) async throws -> Response {
        let body = try await JSONBodies.decode(EnrollmentRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .manage)
        let atKiosk = body.atKiosk ?? false
        if atKiosk, let refusal = ServiceRights.refusal(.enrollAtKiosk, by: caller, for: target.user, service: service) {
            throw refusal
        }
        let configuration = try target.configuration()
        // Known before any stream: no passcode is a 409, as documented, not a 200 whose stream
        // ends in the error. The engine checks again under its lock; this only shapes the answer.
        if let problem = context(target, reader: nil, configuration: configuration).passcodeSetProblem() {
            throw problem.code == .passcodeNotSet
                ? AuthError(.passcodeNotSet, "\(target.user) has no passcode; set one before enrolling a finger") : problem
        }
        // Refused before any stream while an identification is armed on the reader (a 503 the
        // client reads at once); checked again, under the claims' lock, once the stream starts.
        if !atKiosk, let reader = await readers.peek(target)?.identity, readers.claims.isArmed(reader) {
            throw KioskReaderClaims.held(reader)
        }
        return try stream.response(caller: caller, channel: channel) { operation, send in
            // The reader is taken once the passcode is given, for the scans: the prompt holds none.
            guard var turn = try await readers.turn(target, required: true, wait: true, timeout: configuration.scanTimeoutSeconds) else {
                throw AuthError(.biometryNotAvailable, "no fingerprint reader", cause: .noReader)
            }
            // The reader is claimed as the scans take it, after the passcode (KioskReaderClaims).
            let claims = readers.claims, reader = turn.identity
            turn.claim = { try claims.beginEnrollment(operation, on: reader, atKiosk: atKiosk) }
            defer { claims.endEnrollment(operation, on: reader) }
            let context = context(target, turn: turn, configuration: configuration)
            var saved: PrintSummary?
            for try await update in context.enroll(body.finger, replace: body.replace ?? false, prompt: operation.prompt) {
                send(.enrollment(update))
                switch update {
                case .presentFinger(_, let stages): if atKiosk { claims.progress(on: reader, stage: 0, of: stages) }
                case .stage(let completed, let total): if atKiosk { claims.progress(on: reader, stage: completed, of: total) }
                case .saved(let record): saved = PrintSummary(record)
                case .retry: break
                }
            }
            guard let saved else { throw AuthError(.readerFailure, "the reader ended the enrollment without a print") }
            return try JSONValue(encoding: saved)
        }
    }

    func passcode(_ request: Request, _ caller: Caller, _ channel: any Channel) async throws -> Response {
        let body = try await JSONBodies.decode(PasscodeRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .manage)
        let configuration = try target.configuration()
        let new = body.passcode.map { Passcode($0) }
        if body.action != .remove, new == nil { throw ServiceRefusal.badRequest("missing field 'passcode' (the new passcode)") }
        return try stream.response(caller: caller, channel: channel) { operation, send in
            // No step holds the reader while the prompt waits: setting and changing need none, and
            // removing deletes the files first and the sensor's copies of them after, in a turn of
            // the reader of its own.
            let context = context(target, reader: nil, configuration: configuration)
            operation.attach(context)
            return try await Self.forwardingEvents(of: context, to: send) {
                switch body.action {
                case .set:
                    try await context.passcode.set(new!, prompt: operation.prompt)
                    return try JSONValue(encoding: RemovedPrints(user: target.user, removed: []))
                case .change:
                    try await context.passcode.change(to: new!, prompt: operation.prompt)
                    return try JSONValue(encoding: RemovedPrints(user: target.user, removed: []))
                case .remove:
                    let removed = try await context.passcode.remove(prompt: operation.prompt)
                    // Best effort, after the files, keys and passcode are gone: a copy left on the
                    // sensor matches nothing without its file. The answer names what was left.
                    var left = removed.filter(\.storedOnDevice)
                    if !left.isEmpty {
                        left = (try? await readers.with(target, required: false, wait: true, timeout: configuration.scanTimeoutSeconds) {
                            await self.context(target, reader: $0, configuration: configuration).deleteSensorCopies(removed)
                        }) ?? left
                    }
                    var answer = RemovedPrints(user: target.user, removed: removed)
                    if !left.isEmpty { answer.leftOnSensor = left.map(PrintSummary.init) }
                    return try JSONValue(encoding: answer)
                }
            }
        }
    }

    func delete(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(DeletePrintsRequest.self, from: request)
        guard (body.finger == nil) == (body.all ?? false) else {
            throw ServiceRefusal.badRequest("give either 'finger' or 'all': true")
        }
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .manage)
        let configuration = try target.configuration()
        let removed = try await readers.with(target, required: true, wait: true, timeout: configuration.scanTimeoutSeconds) { reader in
            try await context(target, reader: reader, configuration: configuration)
                .deletePrints(body.finger)
        }
        return JSONBodies.ok(RemovedPrints(user: target.user, removed: removed))
    }

    /// `/v1/operations/ID/fallback|cancel|passcode`: the buttons of a running operation, for its owner only.
    func press(_ request: Request, _ context: ServiceRequestContext, _ caller: Caller) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        let button = context.parameters.get("button") ?? ""
        let operation = try registry.find(id, caller: caller, service: service)
        switch button {
        case "fallback":
            let taken = operation.chooseFallback()
            return JSONBodies.ok(["taken": JSONValue.bool(taken)])
        case "cancel":
            operation.cancel(.user)
            return JSONBodies.ok(["cancelled": JSONValue.bool(true)])
        case "invalidate":
            // The app ended its context (LAContext.invalidate): appCancel, not the user's cancel.
            operation.cancel(.app)
            return JSONBodies.ok(["cancelled": JSONValue.bool(true)])
        case "passcode":
            let answer = try await JSONBodies.decode(PasscodeAnswer.self, from: request)
            let passcode = answer.cancel == true ? nil : answer.passcode.map { Passcode($0) }
            guard operation.prompt.answer(passcode) else {
                throw ServiceRefusal(.conflict, .invalidInput, "operation \(id) is not asking for a passcode now")
            }
            return JSONBodies.ok(["answered": JSONValue.bool(true)])
        default:
            throw ServiceRefusal(.notFound, .notFound, "no button '\(button)'; use fallback, cancel, invalidate or passcode")
        }
    }

    /// Runs an engine call with the context's events sent as they happen, flushed before the result.
    static func forwardingEvents<T: Sendable>(of context: AuthenticationContext, to send: @escaping @Sendable (StreamLine) -> Void,
                                              _ body: () async throws -> T) async throws -> T {
        try await EngineEvents.forwarding(of: context, to: { event in
            // The prompt's own `passcodeRequested` line says this, with the reason: one line
            // per question, not two (a client makes the event of it again).
            if case .passcodeRequested = event { return }
            send(.event(event))
        }, body)
    }
}
