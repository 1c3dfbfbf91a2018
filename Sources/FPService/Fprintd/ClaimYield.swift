import FPReaders
import FPVocabulary

/// When a D-Bus claim gives the device up to another user's (issue 49): the one rule, a
/// deliberate difference from fprintd (docs/desktop.md, "Where it differs from fprintd on purpose").
///
/// fprintd keeps a `Claim` until `Release` or until its client leaves the bus, so one client
/// that claims and never releases (a settings dialog left open, a stuck lock screen, a user's
/// own script) keeps every other user's desktop client at `AlreadyInUse` without limit. Here a
/// claim with no action running (no VerifyStart or EnrollStart under way, no deletion) for
/// ``after`` gives way when a request of **another user** arrives: that user's Claim succeeds,
/// and the old holder's next call is told its claim was released. The holder's own other
/// clients still meet `AlreadyInUse`, as with fprintd, and an action never yields, however long
/// it runs (each scan ends by its own timeout). The socket's clients never wait for a claim at all.
struct ClaimYield: Sendable {
    /// How long a claim must have been idle before it yields.
    let after: Duration
    private let seconds: Double
    /// Time since the face began, on its clock.
    private let elapsed: @Sendable () -> Duration

    /// `seconds`: ``ServiceConfiguration/claimYieldSeconds``; `clock`: what idleness is measured on.
    init(seconds: Double, clock: any Clock<Duration>) {
        after = .milliseconds(Int(seconds * 1000))
        self.seconds = seconds
        elapsed = Self.counting(on: clock)
    }

    private static func counting<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// Now, on the face's clock (what ``FprintdDevice/State/quietSince`` records).
    var now: Duration { elapsed() }

    /// Whether the claim in `state` gives way now to a request of the user `uid` (nil: a caller
    /// not known yet, checked again once it is): a claim made with Claim (not one borrowed for
    /// the length of a call), held for another user, with no action running, idle for ``after``.
    func yields(_ state: FprintdDevice.State, to uid: UInt32?) -> Bool {
        // A claim being released goes by itself; taking it would end it twice.
        guard let holder = state.holder, holder.watch != 0, !holder.releasing else { return false }
        if let uid, uid == holder.uid { return false }
        if let running = state.running, !running.done { return false }
        return now - state.quietSince >= after
    }

    /// What the old holder hears at its next call once its claim yielded.
    var released: BusError {
        BusError(.claimDevice, "Device was released: the claim went \(SecondsText.words(seconds)) "
                 + "without an operation and another user's request came; claim it again")
    }
}
