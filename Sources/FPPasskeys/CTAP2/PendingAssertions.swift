import Synchronization

/// The assertions a getAssertion signed beyond its first, for a site with several of the
/// user's discoverable credentials, which getNextAssertion hands out in order (CTAP 2.1 §6.3)
/// so that the platform can show its account chooser. They are gone ``limit`` after the last
/// one was given, and at any other command.
package final class PendingAssertions: Sendable {
    /// How long after getAssertion, or the last getNextAssertion, the next may be asked for.
    package static let limit: Duration = .seconds(30)

    private struct State {
        var answers: [CBORValue] = []
        var givenAt: Duration = .zero
    }

    private let state = Mutex(State())
    private let elapsed: @Sendable () -> Duration

    /// Pending assertions timed by `clock` (tests advance it).
    package init<C: Clock<Duration>>(clock: C = ContinuousClock()) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
    }

    /// Keeps `answers` for getNextAssertion, in order; the clock starts now.
    func keep(_ answers: [CBORValue]) {
        let now = elapsed()
        state.withLock { $0 = State(answers: answers, givenAt: now) }
    }

    /// The next assertion.
    /// - Throws: `CTAP2_ERR_NOT_ALLOWED` when none is left, or the last was given more than
    ///   ``limit`` ago.
    func next() throws(CTAP2Error) -> CBORValue {
        let now = elapsed()
        return try state.withLock { (state: inout State) throws(CTAP2Error) -> CBORValue in
            guard !state.answers.isEmpty else { throw CTAP2Error(.notAllowed, "no assertions are left to give") }
            guard now - state.givenAt <= Self.limit else {
                state = State()
                throw CTAP2Error(.notAllowed, "the assertions left were kept for \(Self.limit) only")
            }
            state.givenAt = now
            return state.answers.removeFirst()
        }
    }

    /// Forgets what is left (any command but getNextAssertion).
    func forget() {
        state.withLock { $0 = State() }
    }
}
