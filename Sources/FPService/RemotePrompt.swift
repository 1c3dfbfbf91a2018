import FPAuthentication
import FPLocalAPI
import FPVocabulary

/// The engine's passcode prompt for a client on the other end of a stream: the question goes
/// out as a `passcodeRequested` line, the answer comes back through `/v1/operations/ID/passcode`.
/// The engine's own timeout and cancellation end an unanswered question with no passcode.
package final class RemotePrompt: AuthPrompt {
    private let send: @Sendable (StreamLine) -> Void
    private let pending = Locked<CheckedContinuation<Passcode?, Never>?>(nil)

    package init(send: @escaping @Sendable (StreamLine) -> Void) {
        self.send = send
    }

    package func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let earlier = pending.withLock { slot in
                    defer { slot = continuation }
                    return slot
                }
                earlier?.resume(returning: nil)
                send(.passcodeRequested(reason: reason, attemptsLeftBeforeLockout: attemptsLeftBeforeLockout))
                // A cancellation that came before the question was stored found nothing to end.
                if Task.isCancelled { _ = answer(nil) }
            }
        } onCancel: {
            _ = answer(nil)
        }
    }

    /// Answers the open question; false when none is open.
    package func answer(_ passcode: Passcode?) -> Bool {
        guard let continuation = pending.withLock({ slot in
            defer { slot = nil }
            return slot
        }) else { return false }
        continuation.resume(returning: passcode)
        return true
    }
}
