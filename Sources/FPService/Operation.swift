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
    private let reason = Locked<CancelReason?>(nil)

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
        if let reason = reason.withLock({ $0 }) { context.cancel(reason) }
    }

    func attach(_ task: Task<Void, Never>) {
        self.task.withLock { $0 = task }
        if reason.withLock({ $0 }) != nil { task.cancel() }
    }

    /// The fallback button; false when it is not shown (yet).
    package func chooseFallback() -> Bool {
        context.withLock { $0 }?.chooseFallback() ?? false
    }

    /// The cancel button (or a client gone): the engine ends with the reason's error.
    package func cancel(_ reason: CancelReason) {
        self.reason.withLock { $0 = $0 ?? reason }
        context.withLock { $0 }?.cancel(reason)
        _ = prompt.answer(nil)
        task.withLock { $0 }?.cancel()
    }

    /// Whether the operation was cancelled (a button, a lost client, sleep).
    package var isCancelled: Bool { reason.withLock { $0 } != nil }

    /// The error an operation ended by a button or a lost client reports, whatever the engine saw.
    func outcome(_ error: any Error) -> AuthError {
        CancelReason.outcome(error, reason: reason.withLock { $0 })
    }
}

/// The operations in progress, by id, for the control endpoints.
package final class OperationRegistry: Sendable {
    private let operations = Locked<[String: Operation]>([:])

    package init() {}

    func add(_ operation: Operation) {
        operations.withLock { $0[operation.id] = operation }
    }

    func remove(_ operation: Operation) {
        _ = operations.withLock { $0.removeValue(forKey: operation.id) }
    }

    /// The operation, if it runs and the caller started it (root may reach any).
    package func find(_ id: String, caller: Caller, service: ServiceConfiguration) throws(ServiceRefusal) -> Operation {
        // Another user's operation is not found rather than forbidden: its id tells nothing.
        guard let operation = operations.withLock({ $0[id] }),
              ServiceRights.refusal(.press(owner: operation.owner), by: caller, for: caller.user, service: service) == nil
        else { throw ServiceRefusal(.notFound, .notFound, "no operation \(id) of \(caller.user) is running") }
        return operation
    }

    /// Cancels every running operation (the machine is going to sleep, the service stops).
    package func cancelAll(_ reason: CancelReason) {
        for operation in operations.withLock({ Array($0.values) }) { operation.cancel(reason) }
    }

    /// How many operations run (status, tests).
    package var count: Int { operations.withLock { $0.count } }
}
