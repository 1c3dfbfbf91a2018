import FPVocabulary

/// A touch of the screen or a key (`POST /wake`): ends the rest the identify loop is in, so
/// that it reads the reader's heat again and re-arms at once when the budget allows.
/// A wake with nobody waiting is dropped: it means nothing to a reader already armed.
package final class WakeSignal: Sendable {
    private enum Waiter {
        case waiting(CheckedContinuation<Void, Never>)
        case cancelled
    }

    private struct State {
        var next: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
    }

    private let state = Locked(State())

    package init() {}

    /// Wakes every waiter.
    package func wake() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.waiters = [:] }
            return state.waiters.values.compactMap { if case .waiting(let c) = $0 { c } else { nil } }
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns at the next wake, or when the task is cancelled.
    package func wait() async {
        let id = state.withLock { state -> UInt64 in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    // Cancelled before the continuation existed: the handler left a mark.
                    if case .cancelled = state.waiters[id] {
                        state.waiters[id] = nil
                        return true
                    }
                    state.waiters[id] = .waiting(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if case .waiting(let continuation) = state.waiters[id] {
                    state.waiters[id] = nil
                    return continuation
                }
                state.waiters[id] = .cancelled
                return nil
            }
            waiting?.resume()
        }
    }
}
