import FPAuthentication
import FPLocalAPI
import Foundation
import FPVocabulary

/// A streamed operation in progress: who started it, and the buttons a client may press on it.
package final class Operation: Sendable {
    package let id: String
    package let owner: UInt32
    package let prompt: RemotePrompt
    private let context = Locked<AuthenticationContext?>(nil)
    private let task = Locked<Task<Void, Never>?>(nil)
    /// Why it was cancelled, and the error its client gets for it (the reason's own, or the
    /// words of whoever cancelled: "fpbridged is stopping").
    private let reason = Locked<(cause: CancelReason, error: AuthError)?>(nil)

    init(owner: UInt32, prompt: RemotePrompt) {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        id = Hex.encode(bytes)
        self.owner = owner
        self.prompt = prompt
    }

    /// The engine context the buttons act on, once the operation has one. A cancel pressed
    /// before it was attached cancels it at once: a button is never lost in that gap.
    package func attach(_ context: AuthenticationContext) {
        self.context.withLock { $0 = context }
        if let reason = reason.withLock({ $0 }) { context.cancel(reason.cause) }
    }

    func attach(_ task: Task<Void, Never>) {
        self.task.withLock { $0 = task }
        if reason.withLock({ $0 }) != nil { task.cancel() }
    }

    /// The fallback button; false when it is not shown (yet).
    package func chooseFallback() -> Bool {
        context.withLock { $0 }?.chooseFallback() ?? false
    }

    /// The cancel button (or a client gone): the engine ends with the reason's error, or with
    /// `error` when given (same code, the canceller's words). The first cancel's reason stands.
    package func cancel(_ reason: CancelReason, saying error: AuthError? = nil) {
        self.reason.withLock { $0 = $0 ?? (reason, error ?? reason.error) }
        context.withLock { $0 }?.cancel(reason)
        _ = prompt.answer(nil)
        task.withLock { $0 }?.cancel()
    }

    /// Whether the operation was cancelled (a button, a lost client, sleep).
    package var isCancelled: Bool { reason.withLock { $0 } != nil }

    /// The error an operation ended by a button or a lost client reports, whatever the engine saw.
    func outcome(_ error: any Error) -> AuthError {
        guard let cancelled = reason.withLock({ $0 }) else { return CancelReason.outcome(error, reason: nil) }
        let outcome = CancelReason.outcome(error, reason: cancelled.cause)
        // Ended as cancelled: in the canceller's words. Anything else (a match that came first) as it is.
        return outcome == cancelled.cause.error ? cancelled.error : outcome
    }
}

/// The operations in progress, by id, for the control endpoints, and the one rule for when a
/// new one may start (``admit(_:)``): not while the machine prepares to sleep, and after the
/// service's stop only to be ended at once. Admission, sleep and stop take the same lock, so an
/// operation is either refused or in the list that sleep and stop cancel; never let through
/// between a check and its recording.
package final class OperationRegistry: Sendable {
    private struct State {
        var operations: [String: Operation] = [:]
        /// Between the announcement of sleep and the wake-up.
        var sleeping = false
        /// Set once the service stops: the error every operation, running or late, ends with.
        var stopped: AuthError?
    }

    private let state = Locked(State())

    package init() {}

    /// What an operation asked for while the machine prepares to sleep is refused with.
    package static let sleeping = AuthError(.systemCancel, "the machine is going to sleep; try again after it wakes")

    /// Records a running operation. One that comes after ``stop(saying:)`` is recorded and
    /// cancelled at once with the stop's error (it started between the stop and the socket's close).
    /// - Throws: ``sleeping`` between ``sleep()`` and ``wake()``; the operation is not recorded.
    package func admit(_ operation: Operation) throws(AuthError) {
        let stop = try state.withLock { (state) throws(AuthError) -> AuthError? in
            if state.sleeping { throw Self.sleeping }
            state.operations[operation.id] = operation
            return state.stopped
        }
        if let stop { operation.cancel(.system, saying: stop) }
    }

    func remove(_ operation: Operation) {
        _ = state.withLock { $0.operations.removeValue(forKey: operation.id) }
    }

    /// The machine prepares to sleep: operations are refused from now on, and every running
    /// one is cancelled (`systemCancel`).
    package func sleep() {
        let running = state.withLock { state in
            state.sleeping = true
            return Array(state.operations.values)
        }
        for operation in running { operation.cancel(.system) }
    }

    /// The machine woke: operations are admitted again.
    package func wake() {
        state.withLock { $0.sleeping = false }
    }

    /// True between ``sleep()`` and ``wake()`` (status).
    package var isSleeping: Bool { state.withLock { $0.sleeping } }

    /// The operation, if it runs and the caller started it (root may reach any).
    package func find(_ id: String, caller: Caller, service: ServiceConfiguration) throws(ServiceRefusal) -> Operation {
        // Another user's operation is not found rather than forbidden: its id tells nothing.
        guard let operation = state.withLock({ $0.operations[id] }),
              ServiceRights.refusal(.press(owner: operation.owner), by: caller, for: caller.user, service: service) == nil
        else { throw ServiceRefusal(.notFound, .notFound, "no operation \(id) of \(caller.user) is running") }
        return operation
    }

    /// The service stops: every running operation and every later one ends with `error`.
    package func stop(saying error: AuthError) {
        let running = state.withLock { state in
            state.stopped = error
            return Array(state.operations.values)
        }
        for operation in running { operation.cancel(.system, saying: error) }
    }

    /// Waits until no operation runs, at most `limit` on `clock`; false when some still ran then.
    /// Cancelled operations end promptly (a scan stops, a state write in flight finishes).
    package func waitUntilEmpty<C: Clock<Duration>>(within limit: Duration, clock: C = ContinuousClock()) async -> Bool {
        let deadline = clock.now.advanced(by: limit)
        while count > 0 {
            guard clock.now < deadline else { return false }
            // A cancelled wait answers with what it knows now, rather than spinning to the deadline.
            do { try await clock.sleep(for: .milliseconds(20), tolerance: nil) } catch { return count == 0 }
        }
        return true
    }

    /// How many operations run (status, tests).
    package var count: Int { state.withLock { $0.operations.count } }
}
