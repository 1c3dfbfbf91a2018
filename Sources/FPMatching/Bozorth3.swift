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
/// - A comparison's work is not bounded (§6.7): a crafted stored print can make this,
///   like libfprint, compute for a very long time.
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

    /// The score of `probe` against `stored`, with a matcher made for this one comparison.
    public static func score(probe: Bozorth3PairTable, stored: Bozorth3PairTable) -> Int {
        var matcher = Bozorth3Matcher()
        return matcher.score(probe: probe, stored: stored)
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
    public mutating func score(probe: Bozorth3PairTable, stored: Bozorth3PairTable) -> Int {
        // A copied matcher shares its scorer's working memory with the original: the copy
        // that scores first gets memory of its own, so copies stay independent values.
        if !isKnownUniquelyReferenced(&scorer.arena) { scorer = Bozorth3Scorer() }
        return scorer.score(probe: probe, stored: stored)
    }
}
