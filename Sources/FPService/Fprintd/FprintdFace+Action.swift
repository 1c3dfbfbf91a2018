import FPAuthentication
import FPReaders
import Foundation
import Synchronization

extension FprintdFace {
    /// What a Start method runs, and how its end is told.
    struct Action: Sendable {
        var kind: FprintdDevice.Kind
        /// The status signal (`VerifyStatus`, `EnrollStatus`).
        var signal: String
        /// Which of ``FprintdEnding/Names`` is this action's final status when it fails, a
        /// cancel included: every action that started ends with one status with `done`, as
        /// fprintd's do.
        var ending: KeyPath<FprintdEnding.Names, String> & Sendable
        /// The status when the work succeeded.
        var success: String
    }

    /// The engine's own report that an action's work succeeded. The action's success status is
    /// sent for this and for nothing else: a work that returns without one (an engine stream
    /// that a cancel ended looks finished to the loop reading it) failed, so that a cancel can
    /// never be told as a success (fail closed).
    enum Proof: Sendable {
        case matched(AuthSuccess)
        case saved(PrintRecord)
    }

    /// The claiming client of a Start call, its user as an engine target, and that target's
    /// limits (a damaged config.json is an error naming it).
    func claimed(_ device: FprintdDevice, _ call: BusCall) throws -> (FprintdDevice.Holder, RequestTarget, AuthConfiguration) {
        let holder = try device.holder(call.sender)
        let target = try target(holder.user, caller: holder.caller)
        do { return (holder, target, try target.configuration()) } catch { throw BusError(.internalError, error.message) }
    }

    /// Starts an action on a claimed device: it runs as an operation of the service (so that
    /// sleep cancels it), takes the reader's turn, and only then answers the Start call, so that
    /// a reader another client holds is an error of the call, not a status. `work` runs with
    /// the reader and the engine context; its end is one status with `done`, and the action
    /// stays until its Stop.
    func begin(_ action: Action, _ device: FprintdDevice, _ call: BusCall, target: RequestTarget, configuration: AuthConfiguration,
               busy: String, afterAnswer: @escaping @Sendable () async -> Void = {},
               work: @escaping @Sendable (AuthenticationContext) async throws -> Proof?) throws(BusError) {
        let operation = Operation(owner: target.caller.credentials.uid, prompt: RemotePrompt(send: { _ in }))
        let reply = call.reply
        // The task is made and recorded in the one step that checks the device is free: a
        // Stop or a Release that comes at once finds it, and cancels it.
        let task = try device.state.withLock { state throws(BusError) -> Task<Void, Never> in
            guard state.holder?.sender == call.sender else { throw BusError(.claimDevice, "Device was not claimed before use") }
            // A Release under way took what ran already: an action started now would outlive the claim.
            guard state.holder?.releasing != true else { throw BusError(.alreadyInUse, "Device is being released") }
            guard state.running == nil else { throw BusError(.alreadyInUse, busy) }
            var running = FprintdDevice.Running(kind: action.kind, operation: operation)
            let id = running.id
            running.task = Task { [self] in
                await run(action, device, id: id, reply: reply, target: target, configuration: configuration,
                          operation: operation, afterAnswer: afterAnswer, work: work)
            }
            state.running = running
            return running.task!
        }
        operation.attach(task)
    }

    private func run(_ action: Action, _ device: FprintdDevice, id: UInt64, reply: BusReply, target: RequestTarget,
                     configuration: AuthConfiguration, operation: Operation, afterAnswer: @escaping @Sendable () async -> Void,
                     work: @escaping @Sendable (AuthenticationContext) async throws -> Proof?) async {
        defer { registry.remove(operation) }
        let started = Atomic<Bool>(false)
        do {
            // While the machine prepares to sleep the Start is accepted and then fails, as
            // fprintd's does on its suspended device: a client waiting for the status hears why.
            do { try registry.admit(operation) } catch {
                started.store(true, ordering: .releasing)
                await reply.values([])
                await afterAnswer()
                throw error
            }
            let proof = try await readers.with(target, required: true, wait: true, timeout: 5) { [self] reader in
                let context = target.context(reader: reader, configuration: configuration, printCaches: printCaches)
                operation.attach(context)
                // Started before the answer goes: a cancel that comes once the client may have
                // it ends the action with a status, never with a second answer.
                started.store(true, ordering: .releasing)
                await reply.values([])
                await afterAnswer()
                // `finger-present` and `finger-needed` are the reader's finger-status flags, as
                // fprintd's are, told in order with the action's own signals.
                device.fingerRelay.begin()
                return try await FingerStatus.listening({ [self] status in
                    device.fingerRelay.tell(afterDecision: status.decided) { [self] in
                        await setFinger(device, present: status.present, needed: status.needed)
                    }
                }) { try await work(context) }
            }
            guard proof != nil else {
                if Task.isCancelled || operation.isCancelled { throw CancellationError() }
                throw AuthError(.readerFailure, "the reader ended the \(action.kind) without a result")
            }
            await finish(device, id, action.signal, action.success, scanResult: action.kind == .verify)
        } catch {
            let problem = operation.outcome(error)
            if started.load(ordering: .acquiring) {
                await finish(device, id, action.signal, FprintdEnding.names(problem)[keyPath: action.ending],
                             scanResult: action.kind == .verify && problem.code == .authenticationFailed)
            } else {
                // The reader never became this call's: the call itself fails.
                device.finished(id)
                await reply.error(problem.code == .readerBusy
                    ? BusError(.alreadyInUse, "the reader is serving another operation: \(problem.message)")
                    : BusError(.internalError, problem.message))
            }
        }
    }

    /// The last status of an action (`done` true), after every finger-status change the reader
    /// made before it (``FingerRelay``): a verification's match or no match is told as the scan
    /// is read (fprintd's match callback), before the reader's operation ends and clears
    /// `finger-needed` (or, on an image reader, `finger-present` at the lift); every other end
    /// (an enrollment's, an error, a Stop) comes once the operation ended, with both cleared
    /// (`FprintdPropertyTests`).
    private func finish(_ device: FprintdDevice, _ id: UInt64, _ signal: String, _ result: String, scanResult: Bool) async {
        device.done(id)
        await device.fingerRelay.caughtUp()
        // Any other end is the reader's operation's end, which clears the flags; a cancelled
        // engine may get here before the reader told it.
        if !scanResult { await setFinger(device, present: false, needed: false) }
        await emit(device, signal, [.string(result), .bool(true)])
        device.fingerRelay.answered()
    }
}
