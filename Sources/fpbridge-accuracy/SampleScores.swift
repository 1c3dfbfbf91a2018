/// What one probe scored against one print's samples, as the matrix and the cache store it:
/// ``slots`` signed 16-bit values per print, one per distinct sample in the print's order.
enum SampleScores {
    /// Slots kept per print: libfprint's image readers enroll 5 samples (elanspi 7: its
    /// last two are not scored here).
    static let slots = 5
    /// The comparison met bozorth3's step cap (``FPMatching/Bozorth3/WorkLimitExceeded``).
    static let workLimit: Int16 = -1
    /// The print has no sample in this slot.
    static let noSample: Int16 = -2
    /// Not computed: the run was limited to fewer samples a print (`--samples`).
    static let notComputed: Int16 = -3

    /// A print's score as the new rule takes it: the best of its scored samples; nil when
    /// any of them met the step cap (unknown, not low: FPMatching's convention).
    static func printScore(_ row: ArraySlice<Int16>) -> Int? {
        var best: Int16 = -1
        for value in row {
            if value == workLimit { return nil }
            best = max(best, value)
        }
        return best >= 0 ? Int(best) : nil
    }

    /// Whether any of a print's slots met the step cap.
    static func capped(_ row: ArraySlice<Int16>) -> Bool {
        row.contains(workLimit)
    }

    /// A bozorth3 score as a slot holds it (bozorth3 scores stay far below 32,767; its
    /// queue-overflow score is 4,000).
    static func slot(_ score: Int) -> Int16 {
        Int16(clamping: score)
    }
}
