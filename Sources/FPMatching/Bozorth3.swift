/// NIST's bozorth3 minutiae matcher as libfprint 1.94.5 runs it, written for this project
/// from the algorithm (docs/bozorth3.md): for every probe and stored sample it gives the
/// score libfprint's own bozorth3 gives, limits and quirks included.
///
/// - Scores are bozorth3's "fresh" scores: those libfprint computes for a pair when it is
///   the first comparison of the process. libfprint's later comparisons can read rows a
///   previous comparison left behind and then differ by a point or so (§7); no
///   order-free matcher can follow that.
/// - The limits are bozorth3's: either sample with fewer than 10 minutiae scores 0; the
///   tables stop at 19,999 rows; at most 2,000 clusters are formed; a queue overflow
///   scores 4,000, which matches at every threshold.
/// - A comparison's work is bounded where bozorth3's is not (§6.7): past
///   ``stepLimit`` steps of passes and COMBINE, far more than any pair of the
///   score-for-score fixtures takes, the comparison throws instead of computing on
///   (libfprint would still be computing).
///
/// Checked against libfprint's own compiled bozorth3, pair by pair: identical on 100,001
/// pairs of the long run, 43 adversarial and 300 crafted ones; on 120,041 pairs after the
/// speed-up (docs/bozorth3.md §11.5); and on the long run's 100,001, the 43 and the 300
/// again after the cluster index and the odometer shortcut (§12, shortcuts 8 and 9).
///
/// Build each sample's ``Bozorth3PairTable`` once and compare with a ``Bozorth3Matcher``,
/// which keeps its working memory between comparisons.
public enum Bozorth3 {
    /// libfprint's threshold when the driver sets none (`BOZORTH3_DEFAULT_THRESHOLD`):
    /// a sample matches when its score is at least this.
    public static let defaultThreshold = 40

    /// The most steps one comparison may take: a pass counts one step and one more per row
    /// it took, a COMBINE step one and one more per cluster left in the list it scans, so a
    /// step is a bounded amount of work. The 421 pairs of the score-for-score fixture, 43
    /// adversarial ones included, take at most 383,277; this is 52 times that. A sample of
    /// 40 minutiae within 100 pixels, each 5 times, against itself reaches it after 1.1 s in
    /// a debug build (10.6 s to its score without the limit); libfprint computed for more
    /// than 10 minutes on such samples (docs/bozorth3.md §6.7).
    public static let stepLimit = 20_000_000

    /// A comparison that would take more than ``stepLimit`` steps: it has no score, and a
    /// decision must not be made as if it had none (fail closed).
    public struct WorkLimitExceeded: Error, Sendable, Hashable {
        public init() {}
    }

    /// The score of `probe` against `stored`, with a matcher made for this one comparison.
    public static func score(probe: Bozorth3PairTable, stored: Bozorth3PairTable) throws(WorkLimitExceeded) -> Int {
        var matcher = Bozorth3Matcher()
        return try matcher.score(probe: probe, stored: stored)
    }
}

/// Compares samples with bozorth3, reusing its working memory from one comparison to the
/// next. One matcher per thread: it is a value, so each copy has its own memory.
public struct Bozorth3Matcher: Sendable {
    private var scorer = Bozorth3Scorer()

    /// A matcher with empty working memory.
    public init() {}

    /// The score libfprint's bozorth3 gives `probe` (the scanned sample) against `stored`
    /// (one sample of an enrolled print). Not symmetric: the roles use the tables
    /// differently, as in the library.
    ///
    /// - Throws: ``Bozorth3/WorkLimitExceeded`` past ``Bozorth3/stepLimit`` steps.
    public mutating func score(probe: Bozorth3PairTable, stored: Bozorth3PairTable) throws(Bozorth3.WorkLimitExceeded) -> Int {
        // A copied matcher shares its scorer's working memory with the original: the copy
        // that scores first gets memory of its own, so copies stay independent values.
        if !isKnownUniquelyReferenced(&scorer.arena) { scorer = Bozorth3Scorer() }
        guard let score = scorer.score(probe: probe, stored: stored, steps: Bozorth3.stepLimit) else {
            throw Bozorth3.WorkLimitExceeded()
        }
        return score
    }
}
