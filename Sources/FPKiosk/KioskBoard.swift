import FPVocabulary

/// What the page shows now, and the pages watching it (`GET /events`). The identify loop
/// writes it; each watcher gets the current snapshot at once and every change after (a login
/// session only while it watches: see ``show(_:)``).
package final class KioskBoard: Sendable {
    private struct State {
        var snapshot = KioskSnapshot(.starting, message: "starting")
        /// When the countdown ends, on the clock's scale.
        var countdownEnds: Double?
        var nextWatcher = 0
        var watchers: [Int: AsyncStream<KioskSnapshot>.Continuation] = [:]
    }

    private let state = Locked(State())
    private let clock: any KioskClock

    package init(clock: any KioskClock) {
        self.clock = clock
    }

    /// The snapshot now, its countdown counted down to this moment.
    package var current: KioskSnapshot {
        state.withLock { Self.counted($0, now: clock.now) }
    }

    /// Shows a new state to every page; a snapshot equal to the one shown is not sent again.
    /// It carries the number of the last result (``KioskSnapshot/result``): a state between
    /// results (ready, reading, resting, unavailable) is no result.
    ///
    /// A login session goes to the pages watching now and is not kept: the board's snapshot,
    /// which a page that connects later gets first and which is sent again every 10 s, has
    /// none. The session is handed off the moment it is sent, so it has no lifetime here to
    /// limit; a page that was not watching at the welcome never sees it.
    package func show(_ snapshot: KioskSnapshot) {
        publish(snapshot, asResult: false)
    }

    /// Shows the reader's next result (a welcome, a refusal, a lockout) to every page, numbered
    /// one more than the last (``KioskSnapshot/result``): always sent, even when it reads
    /// exactly as the one before, since it is the next person's. Its session goes as
    /// ``show(_:)`` says.
    package func showResult(_ snapshot: KioskSnapshot) {
        publish(snapshot, asResult: true)
    }

    private func publish(_ snapshot: KioskSnapshot, asResult: Bool) {
        let now = clock.now
        let (watchers, sent) = state.withLock { state -> ([AsyncStream<KioskSnapshot>.Continuation], KioskSnapshot?) in
            var sent = snapshot
            sent.result = state.snapshot.result + (asResult ? 1 : 0)
            let ends = snapshot.countdown.map { now + $0 }
            if !asResult, state.snapshot == sent, ends == nil, state.countdownEnds == nil { return ([], nil) }
            var kept = sent
            kept.session = nil
            state.snapshot = kept
            state.countdownEnds = ends
            return (Array(state.watchers.values), sent)
        }
        if let sent { for watcher in watchers { watcher.yield(sent) } }
    }

    /// Sends the current snapshot again (its countdown as it stands): keeps idle event streams
    /// alive and corrects a page whose own countdown drifted.
    package func repeatCurrent() {
        let (watchers, snapshot) = state.withLock { state in
            (Array(state.watchers.values), Self.counted(state, now: clock.now))
        }
        for watcher in watchers { watcher.yield(snapshot) }
    }

    /// The snapshots from now on, starting with the current one; ends when the consumer stops.
    package func watch() -> AsyncStream<KioskSnapshot> {
        let (stream, continuation) = AsyncStream<KioskSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = state.withLock { state -> Int in
            defer { state.nextWatcher += 1 }
            state.watchers[state.nextWatcher] = continuation
            continuation.yield(Self.counted(state, now: clock.now))
            return state.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every watcher's stream (the server stops).
    package func close() {
        let watchers = state.withLock { state in
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.finish() }
    }

    private static func counted(_ state: State, now: Double) -> KioskSnapshot {
        var snapshot = state.snapshot
        if let ends = state.countdownEnds { snapshot.countdown = max(0, ends - now) }
        return snapshot
    }
}
