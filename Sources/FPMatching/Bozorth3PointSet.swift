/// A set of minutia numbers (1-based, below 256: samples hold at most 200), as a bitset,
/// so that "do two clusters share a minutia" is four ANDs.
struct Bozorth3PointSet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(_ point: Int32) {
        let bit = UInt64(1) << UInt64(point & 63)
        switch point >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    /// Calls `body` with each number in the set, in increasing order.
    @inline(__always)
    func forEach(_ body: (Int32) -> Void) {
        Self.each(words.0, 0, body)
        Self.each(words.1, 64, body)
        Self.each(words.2, 128, body)
        Self.each(words.3, 192, body)
    }

    @inline(__always)
    private static func each(_ word: UInt64, _ base: Int32, _ body: (Int32) -> Void) {
        var remaining = word
        while remaining != 0 {
            body(base + Int32(remaining.trailingZeroBitCount))
            remaining &= remaining &- 1
        }
    }

    func intersects(_ other: Bozorth3PointSet) -> Bool {
        (words.0 & other.words.0) | (words.1 & other.words.1) | (words.2 & other.words.2)
            | (words.3 & other.words.3) != 0
    }
}
