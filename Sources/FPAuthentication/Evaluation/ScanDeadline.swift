/// The end of an evaluation's wait for a finger: one deadline, fixed when the evaluation asks
/// for its reader, that the wait for the reader's turn and every scan of it share (issue 49). A retry hint (finger too short,
/// remove and retry, dirty sensor), a wrong finger with attempts left and every other event
/// start the next scan with what is left of it, never with a fresh timeout: a person who
/// asked for 5 s is answered within 5 s, and a reader sending a hint every 3 s no longer
/// keeps a scan (and the reader, from everyone else) alive without end.
///
/// Only the waiting is bounded: a finger read just before the end is still matched, however
/// long the comparison takes (a reader's `fingerTimeout` bounds the wait for a scan, not the
/// matching after it).
struct ScanDeadline: Sendable {
    /// What is left until the end, read on the clock the deadline was set on.
    private let left: @Sendable () -> Duration

    /// A deadline `timeout` from now on `clock` (the environment's ``AuthEnvironment/scanClock``).
    init(after timeout: Duration, on clock: any Clock<Duration>) {
        left = Self.counting(down: timeout, on: clock)
    }

    /// Opens the clock's own instants: the deadline is kept as one of them.
    private static func counting<C: Clock<Duration>>(down timeout: Duration, on clock: C) -> @Sendable () -> Duration {
        let end = clock.now.advanced(by: timeout)
        return { clock.now.duration(to: end) }
    }

    /// The time left for the next scan's finger; zero once the deadline has passed.
    var remaining: Duration { max(.zero, left()) }
}
