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

    func intersects(_ other: Bozorth3PointSet) -> Bool {
        (words.0 & other.words.0) | (words.1 & other.words.1) | (words.2 & other.words.2)
            | (words.3 & other.words.3) != 0
    }
}
