/// What one identification's scan gave: every print's score, for the engine's own 1:N
/// decision, or the reader's decision where fpbridge does not compare.
package enum IdentificationScan: Sendable, Hashable {
    /// fpbridge compared the scan with every print (image readers it has a threshold for).
    case scored(GalleryScores)
    /// The reader decided, or the scan needs another try: match-on-chip sensors, the fake
    /// reader's exact matches, and prints only libfprint can compare (libfprint's first match).
    case decided(MatchOutcome)
}

/// The score of every print of a gallery for one scan.
package struct GalleryScores: Sendable, Hashable {
    /// Each print's score in gallery order: the best of its distinct samples; nil when a
    /// comparison exceeded the step limit (unknown, not low).
    package let scores: [Int?]
    /// Sample comparisons made, which the 1:N threshold is set from.
    package let comparisons: Int
    /// The reader's 1:1 threshold: the 1:N threshold is never lower.
    package let readerThreshold: Int

    package init(scores: [Int?], comparisons: Int, readerThreshold: Int) {
        self.scores = scores
        self.comparisons = comparisons
        self.readerThreshold = readerThreshold
    }
}
