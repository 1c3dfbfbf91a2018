import Foundation
import Synchronization

/// Tells a test when each of several commands has shown a prompt on stderr, in the
/// order they show it: a touch sent then reaches the operation that asked for it,
/// however slowly the processes start on a loaded machine.
public final class PromptSignal: Sendable {
    private let marker: String
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    /// - Parameter marker: text the prompt contains.
    public init(_ marker: String) {
        self.marker = marker
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    deinit { finish() }

    /// No more prompts will come (the commands ended): a waiting ``next(within:)`` returns false.
    public func finish() { continuation.finish() }

    /// The `onStderr` watcher for one command: signals each prompt that appears in its stderr.
    public func watcher() -> @Sendable (String) -> Void {
        let seen = Mutex(0)
        return { [marker, continuation] text in
            let count = text.components(separatedBy: marker).count - 1
            let new = seen.withLock { seen in
                defer { seen = max(seen, count) }
                return max(0, count - seen)
            }
            for _ in 0..<new { continuation.yield() }
        }
    }

    /// Signals one prompt directly (for a watcher that is not a command's stderr).
    public func signal() { continuation.yield() }

    /// Waits for the next command's prompt. Returns false when none came within `seconds`
    /// (after which no later prompt is seen either).
    public func next(within seconds: Double) async -> Bool {
        let stream = stream
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                var prompts = stream.makeAsyncIterator()
                return await prompts.next() != nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
