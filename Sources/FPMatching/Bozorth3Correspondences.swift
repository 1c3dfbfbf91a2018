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

    var count: Int { rotation.count }

    /// Where bozorth3 stops adding rows; reachable with dense 200-minutia samples.
    static let cap = 19_999

    /// An empty list.
    init() {}

    /// Pairs the probe's table with the stored sample's.
    init(probe: Bozorth3PairTable, stored: Bozorth3PairTable) {
        typealias Found = (rotation: Int32, pk: Int32, pj: Int32, gk: Int32, gj: Int32, storedRow: Int32)
        var found: [Found] = []
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
                // Directions of 220 and more were stored swapped: fold them back by 180°.
                let probeCode = probe.direction[a]
                let storedCode = stored.direction[b]
                let probeSwapped = probeCode >= 220
                let storedSwapped = storedCode >= 220
                let probeDirection = probeSwapped ? probeCode &- 580 : probeCode
                let storedDirection = storedSwapped ? storedCode &- 580 : storedCode
                let rotation = Bozorth3Numerics.normalized(probeDirection &- storedDirection)
                if probeSwapped == storedSwapped {
                    found.append((rotation, probe.first[a], probe.second[a], stored.first[b], stored.second[b], Int32(b)))
                } else {
                    found.append((rotation, probe.first[a], probe.second[a], stored.second[b], stored.first[b], Int32(b)))
                }
                if found.count == Self.cap { break pairing }
                b += 1
            }
        }
        // Equal (pk, gk, pj) keys come from one probe row, found in stored-row order: adding
        // that row to the key gives bozorth3's insertion order with a plain sort.
        found.sort { l, r in
            if l.pk != r.pk { return l.pk < r.pk }
            if l.gk != r.gk { return l.gk < r.gk }
            if l.pj != r.pj { return l.pj < r.pj }
            return l.storedRow < r.storedRow
        }
        rotation = found.map(\.rotation)
        probeFirst = found.map(\.pk)
        probeSecond = found.map(\.pj)
        storedFirst = found.map(\.gk)
        storedSecond = found.map(\.gj)
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
