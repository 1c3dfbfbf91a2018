import FPStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The identification budget a passer-by's success does not refill (issue 50).
///
/// The timed lockouts count failures in a row, and any enrolled person's touch or right PIN
/// starts that count again, so a guesser who waits for passers-by between his touches was never
/// stopped: 20 wrong touches went through without a lockout, the ~720 guesses an hour
/// docs/kiosk.md says it refuses. What a guesser can win is what the threshold lets a stranger
/// win per touch (``IdentificationPolicy/targetStrangerRate`` (FPMatching)) times his touches. So
/// a reader also keeps its failed identifications of about the last hour (a count that decays by
/// e an hour, ``strangerTouchesDecaySeconds``), which nothing but time lowers, and the 1:N
/// threshold rises with it (``IdentificationPolicy/threshold(comparisons:readerThreshold:recentFailedTouches:)``):
/// beyond the policy's ``IdentificationPolicy/strangerTouchesPerHour`` each touch must be that
/// much rarer to reach, so that all of them together can win no more than that many touches at
/// the target could. Nobody is locked out by it: the next person's clear print still clears the
/// higher threshold, a close one is asked for another touch, and the PIN pad stays open.
extension LockoutRules {
    /// Seconds in which a reader's failed identifications lose all but 1/e of their weight.
    static let strangerTouchesDecaySeconds: Double = 3600

    /// The reader's failed identifications now, decayed. Unusable counter: infinitely many (no
    /// threshold is then reached; the evaluation is refused anyway). A moment the clocks put in
    /// the future proves nothing: the count is taken whole.
    func recentStrangerTouches(_ counter: AttemptCounter) -> Double {
        if counter.unusable { return .infinity }
        guard counter.strangerTouches > 0 else { return 0 }
        guard let at = counter.strangerTouchesAt, let elapsed = clock.elapsed(since: at) else { return counter.strangerTouches }
        return counter.strangerTouches * exp(-elapsed / Self.strangerTouchesDecaySeconds)
    }

    /// Counts one failed identification in the reader's decaying count.
    func countStrangerTouch(_ counter: inout AttemptCounter) {
        counter.strangerTouches = min(recentStrangerTouches(counter) + 1, Double(AttemptCounter.maximumCount))
        counter.strangerTouchesAt = clock.moment
    }
}
