/// The correspondence list of one comparison: every probe edge paired with every stored
/// edge of about the same length and the same angles (docs/bozorth3.md §5).
///
/// A row says "probe minutiae (pk, pj) may be stored minutiae (gk, gj), the stored edge
/// turned by `rotation`". Rows are sorted by (pk, gk, pj), equal keys in the order they
/// were found, as bozorth3 keeps them: the scoring walks groups of rows that share
/// (pk, gk) and its results depend on that order.
struct Bozorth3Correspondences {
    var rotation: [Int32] = []
    var probeFirst: [Int32] = []
    var probeSecond: [Int32] = []
    var storedFirst: [Int32] = []
    var storedSecond: [Int32] = []
    /// The rows packed for sorting (kept for its memory).
    private var keys: [UInt64] = []

    var count: Int { rotation.count }

    /// Where bozorth3 stops adding rows; reachable with dense 200-minutia samples.
    static let cap = 19_999

    /// An empty list.
    init() {}

    /// The list of a probe's and a stored sample's tables.
    init(probe: Bozorth3PairTable, stored: Bozorth3PairTable) {
        fill(probe: probe, stored: stored)
    }

    /// Fills the list (reusing its memory) with the pairs of the probe's and the stored
    /// sample's tables.
    mutating func fill(probe: Bozorth3PairTable, stored: Bozorth3PairTable) {
        // Each row packed into one integer whose order is the list's order: (pk, gk, pj),
        // then the stored row, which bozorth3's insertion leaves equal keys in (equal keys
        // come from one probe row, found in stored-row order); gj and the rotation ride below.
        // Minutiae are numbered 1...200 (8 bits), stored rows < 20,000 (16 bits).
        keys.removeAll(keepingCapacity: true)
        let storedRows = stored.usedRows
        // The probe side leaves out its last used row: a fact of the library's loop bounds.
        let probeRows = probe.usedRows - 1
        // Stored rows too short for every probe row so far; only grows, since both tables
        // are sorted by length.
        var start = 0
        pairing: for a in 0..<max(0, probeRows) {
            let length = probe.squaredLength[a]
            var b = start
            while b < storedRows {
                let other = stored.squaredLength[b]
                // The tolerance is tested in single precision, squared, as the library does:
                // a window computed any other way differs at the boundary.
                let difference = Float(other &- length)
                let limit = Bozorth3Numerics.tenth * Float(other &+ length)
                if difference * difference > limit * limit {
                    if difference < 0 {
                        start = b + 1
                        b += 1
                        continue
                    }
                    break
                }
                if Bozorth3Numerics.tooFar(probe.smallerAngle[a] &- stored.smallerAngle[b])
                    || Bozorth3Numerics.tooFar(probe.largerAngle[a] &- stored.largerAngle[b]) {
                    b += 1
                    continue
                }
                let rotation = Bozorth3Numerics.normalized(probe.foldedDirection[a] &- stored.foldedDirection[b])
                // Edges stored the other way round on one side only: the stored ends swap.
                let sameWay = probe.swapped[a] == stored.swapped[b]
                let gk = sameWay ? stored.first[b] : stored.second[b]
                let gj = sameWay ? stored.second[b] : stored.first[b]
                var key = UInt64(UInt8(truncatingIfNeeded: probe.first[a])) << 56
                key |= UInt64(UInt8(truncatingIfNeeded: gk)) << 48
                key |= UInt64(UInt8(truncatingIfNeeded: probe.second[a])) << 40
                key |= UInt64(UInt16(truncatingIfNeeded: b)) << 24
                key |= UInt64(UInt8(truncatingIfNeeded: gj)) << 16
                key |= UInt64(UInt16(truncatingIfNeeded: rotation &+ 180))
                keys.append(key)
                if keys.count == Self.cap { break pairing }
                b += 1
            }
        }
        keys.sort()
        rotation.removeAll(keepingCapacity: true)
        probeFirst.removeAll(keepingCapacity: true)
        probeSecond.removeAll(keepingCapacity: true)
        storedFirst.removeAll(keepingCapacity: true)
        storedSecond.removeAll(keepingCapacity: true)
        for key in keys {
            probeFirst.append(Int32(key >> 56))
            storedFirst.append(Int32((key >> 48) & 0xFF))
            probeSecond.append(Int32((key >> 40) & 0xFF))
            storedSecond.append(Int32((key >> 16) & 0xFF))
            rotation.append(Int32(key & 0xFFFF) - 180)
        }
    }

    /// Whether row `row` starts at (probePoint, storedPoint). Past the end of the list the
    /// library reads rows an earlier comparison left; in a fresh list they are zero and
    /// never match a minutia (minutiae are numbered from 1).
    @inline(__always)
    func startsAt(_ row: Int, probePoint: Int32, storedPoint: Int32) -> Bool {
        row < count && storedFirst[row] == storedPoint && probeFirst[row] == probePoint
    }

    /// The first row at or after `from` that starts at (probePoint, storedPoint): the rows
    /// are sorted on (pk, gk), so a binary search.
    func firstRow(from: Int, probePoint: Int32, storedPoint: Int32) -> Int? {
        var low = from
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let pk = probeFirst[middle]
            if pk < probePoint || (pk == probePoint && storedFirst[middle] < storedPoint) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return startsAt(low, probePoint: probePoint, storedPoint: storedPoint) ? low : nil
    }
}
