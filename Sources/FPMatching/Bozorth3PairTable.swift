/// The pair table of one NBIS sample: every pair of its minutiae that bozorth3 compares,
/// in bozorth3's order, cut where bozorth3 cuts it (docs/bozorth3.md §3-4).
///
/// The table depends on the sample alone, not on the sample it is compared with, so it is
/// built once (when a print is loaded, or once per scan for a probe) and reused for every
/// comparison; libfprint rebuilds it for each one. The same table serves as probe or as
/// stored sample: only the number of rows used differs (``usedRows`` as stored sample, one
/// fewer as probe).
public struct Bozorth3PairTable: Sendable {
    /// The sample's minutiae, as given.
    public let minutiae: [NBISMinutia]
    /// Rows bozorth3 uses when this sample is the stored one (the probe uses one fewer).
    public var usedRows: Int { squaredLength.count }

    // One column per field (structure of arrays), only the first `usedRows` rows kept, each
    // as narrow as its values allow: fpbridged caches the tables of every enrolled print
    // (13 bytes a row for a real print, 33 when every column was 32-bit).
    /// Squared distance between the two minutiae.
    let squaredLength: [Int32]
    /// 1-based positions of the two minutiae in the sample, `first < second`: at most
    /// ``maximumMinutiae``, so a byte each (the tables are cached for every enrolled print).
    let first: [UInt8]
    let second: [UInt8]
    /// What pairing reads of the edge's direction: the direction turned by 180° when the two
    /// angles were stored swapped (bozorth3 folds codes of 220 and more back by 580), and
    /// whether they were.
    /// (`-270...90`: an edge direction is within ±90.)
    let foldedDirection: [Int16]
    let swapped: [Bool]
    /// Every length non-negative and every angle within ±2,047: true for any sample whose
    /// coordinates and angles are not crafted to wrap. Pairing two such tables may find
    /// each probe row's window directly and test angles in 16 bits (docs/bozorth3.md §5).
    let regular: Bool
    /// The smaller and the larger of the two angles between the edge and each minutia's
    /// direction, in 16 bits, as a regular table holds them (twice the rows per vector
    /// instruction in pairing); empty in an irregular table.
    let smallerAngle16: [Int16]
    let largerAngle16: [Int16]
    /// The same in 32 bits, as only an irregular table (crafted angles) needs them; empty in
    /// a regular one. ``smallerAngle(_:)`` and ``largerAngle(_:)`` read whichever is kept.
    private let smallerAngle32: [Int32]
    private let largerAngle32: [Int32]

    /// The most minutiae of a sample bozorth3 holds (`MAX_BOZORTH_MINUTIAE`).
    public static let maximumMinutiae = 200
    /// The longest edge bozorth3 keeps, squared (125 pixels).
    static let longestEdge: Int32 = 15_625
    /// Edges up to this squared length (75 pixels) decide how much of the table is used.
    static let usedEdge: Int32 = 5_625
    /// The least number of rows used when the table has them.
    static let leastRows = 500
    /// Where bozorth3 stops filling a table.
    static let rowCap = 19_999

    /// Builds the table of a sample.
    ///
    /// - Parameter minutiae: the sample as libfprint stores it. libfprint refuses to load
    ///   a sample of more than ``maximumMinutiae``; here only the first that many are used.
    public init(minutiae: [NBISMinutia]) {
        let minutiae = Array(minutiae.prefix(Self.maximumMinutiae))
        self.minutiae = minutiae
        typealias Row = (length: Int32, smaller: Int32, larger: Int32, first: Int32, second: Int32, direction: Int32)
        var rows: [Row] = []
        let count = minutiae.count
        scan: for k in 0..<max(0, count - 1) {
            let a = minutiae[k]
            for j in (k + 1)..<count {
                let b = minutiae[j]
                // Minutiae pointing exactly opposite ways are never paired.
                if b.theta > 0 ? a.theta == b.theta &- 180 : a.theta == b.theta &+ 180 { continue }
                let dx = b.x &- a.x
                let dy = b.y &- a.y
                let length = dx &* dx &+ dy &* dy
                if length > Self.longestEdge {
                    // The scan assumes minutiae sorted by x: past 125 pixels to the right, it
                    // gives up on this k even when the stored sample is not sorted.
                    if dx > 125 { continue scan }
                    continue
                }
                let direction = Bozorth3Numerics.edgeDirection(dx: dx, dy: dy)
                let fromFirst = Bozorth3Numerics.normalized(direction &- a.theta)
                let fromSecond = Bozorth3Numerics.normalized(direction &- b.theta &+ 180)
                if fromFirst < fromSecond {
                    rows.append((length, fromFirst, fromSecond, Int32(k + 1), Int32(j + 1), direction))
                } else {
                    rows.append((length, fromSecond, fromFirst, Int32(k + 1), Int32(j + 1), direction &+ 400))
                }
                if rows.count == Self.rowCap { break scan }
            }
        }
        // bozorth3 inserts each row after the rows with an equal (length, angles) key; the
        // rows come in (k, j) order, so a sort on the key plus (k, j) gives the same order.
        rows.sort { l, r in
            if l.length != r.length { return l.length < r.length }
            if l.smaller != r.smaller { return l.smaller < r.smaller }
            if l.larger != r.larger { return l.larger < r.larger }
            if l.first != r.first { return l.first < r.first }
            return l.second < r.second
        }
        // The rows up to 75 pixels and one more, but at least 500 when there are as many.
        var short = 0
        var high = rows.count
        while short < high {
            let middle = (short + high) / 2
            if rows[middle].length <= Self.usedEdge { short = middle + 1 } else { high = middle }
        }
        let used = min(rows.count, max(short + 1, Self.leastRows))
        let kept = rows[0..<used]
        squaredLength = kept.map(\.length)
        first = kept.map { UInt8($0.first) }
        second = kept.map { UInt8($0.second) }
        foldedDirection = kept.map { Int16($0.direction >= 220 ? $0.direction &- 580 : $0.direction) }
        swapped = kept.map { $0.direction >= 220 }
        // Sorted by length: the first is the least.
        let regular = (kept.first?.length ?? 0) >= 0
            && kept.allSatisfy { -2_047...2_047 ~= $0.smaller && -2_047...2_047 ~= $0.larger }
        self.regular = regular
        smallerAngle16 = regular ? kept.map { Int16($0.smaller) } : []
        largerAngle16 = regular ? kept.map { Int16($0.larger) } : []
        smallerAngle32 = regular ? [] : kept.map(\.smaller)
        largerAngle32 = regular ? [] : kept.map(\.larger)
    }

    /// Row `row`'s smaller angle, from whichever width the table keeps.
    @inline(__always)
    func smallerAngle(_ row: Int) -> Int32 { regular ? Int32(smallerAngle16[row]) : smallerAngle32[row] }

    /// Row `row`'s larger angle, from whichever width the table keeps.
    @inline(__always)
    func largerAngle(_ row: Int) -> Int32 { regular ? Int32(largerAngle16[row]) : largerAngle32[row] }

    /// Row `row`'s edge direction in bozorth3's own encoding: `-90...90`, plus 400 when the
    /// two angles were stored swapped. Not kept, since pairing reads the folded form; for the tests.
    func direction(_ row: Int) -> Int32 {
        swapped[row] ? Int32(foldedDirection[row]) &+ 580 : Int32(foldedDirection[row])
    }
}
