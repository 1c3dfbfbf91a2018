import Foundation
import Synchronization

/// Tells a test when each of several commands has shown a prompt on stderr, in the
/// order they show it: a touch sent then reaches the operation that asked for it,
/// however slowly the processes start on a loaded machine.
public final class PromptSignal: Sendable {
    private struct State {
        var unclaimed = 0
        var finished = false
        var waiting: [(id: UUID, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private let marker: String
    private let state = Mutex(State())

    /// - Parameter marker: text the prompt contains.
    public init(_ marker: String) {
        self.marker = marker
    }

    deinit { finish() }

    /// The `onStderr` watcher for one command: signals each prompt that appears in its stderr.
    public func watcher() -> @Sendable (String) -> Void {
        let seen = Mutex(0)
        return { [marker] text in
            let count = text.components(separatedBy: marker).count - 1
            let new = seen.withLock { seen in
                defer { seen = max(seen, count) }
                return max(0, count - seen)
            }
            for _ in 0..<new { self.signal() }
        }
    }

    /// Signals one prompt directly (for a watcher that is not a command's stderr).
    public func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiting.isEmpty else {
                state.unclaimed += 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        waiter?.resume(returning: true)
    }

    /// No more prompts will come (the commands ended): waiting ``next(within:)`` calls return false.
    public func finish() {
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiters { waiter.continuation.resume(returning: false) }
    }

    /// Waits for the next prompt not yet waited for. Returns false when none came within
    /// `seconds` or the commands ended first; a later prompt is still seen by the next call.
    public func next(within seconds: Double) async -> Bool {
        let id = UUID()
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if state.unclaimed > 0 {
                    state.unclaimed -= 1
                    return true
                }
                if state.finished { return false }
                state.waiting.append((id, continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}
