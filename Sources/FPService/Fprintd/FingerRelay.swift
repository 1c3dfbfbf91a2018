import FPReaders
import FPVocabulary

/// Carries a device's finger-status changes (``FingerStatus``, told on the reader's loop) to
/// its `finger-present` and `finger-needed` properties one after another, in the order they
/// happened. ``caughtUp()`` waits until every change told so far is announced: the face calls
/// it before each signal, so a change the reader made before a result is announced before it.
/// A change made once the match was decided waits for the action's result (``answered()``),
/// as fprintd tells the match when it is decided.
final class FingerRelay: Sendable {
    private enum Item: Sendable {
        case change(@Sendable () async -> Void)
        case mark(CheckedContinuation<Void, Never>)
    }

    private let items: AsyncStream<Item>.Continuation
    private let consumer: Task<Void, Never>
    /// Whether the running action's result went out, and the changes waiting for it.
    private let waiting = Locked<(answered: Bool, changes: [@Sendable () async -> Void])>((true, []))

    init() {
        let (stream, items) = AsyncStream<Item>.makeStream()
        self.items = items
        consumer = Task {
            for await item in stream {
                switch item {
                case .change(let announce): await announce()
                case .mark(let done): done.resume()
                }
            }
        }
    }

    deinit {
        items.finish()
    }

    /// Told from the reader's loop: `announce` runs once the changes told before it did, and
    /// for a change after the match's decision, once the result went out.
    func tell(afterDecision: Bool, _ announce: @escaping @Sendable () async -> Void) {
        waiting.withLock { waiting in
            if afterDecision && !waiting.answered { waiting.changes.append(announce) } else { items.yield(.change(announce)) }
        }
    }

    /// An action starts: its result is still to come.
    func begin() {
        waiting.withLock { waiting in
            for announce in waiting.changes { items.yield(.change(announce)) }
            waiting = (false, [])
        }
    }

    /// The action's result went out: the changes that waited for it follow.
    func answered() {
        waiting.withLock { waiting in
            for announce in waiting.changes { items.yield(.change(announce)) }
            waiting = (true, [])
        }
    }

    /// Returns once every change told before this call is announced.
    func caughtUp() async {
        await withCheckedContinuation { done in
            if case .terminated = items.yield(.mark(done)) { done.resume() }
        }
    }
}
