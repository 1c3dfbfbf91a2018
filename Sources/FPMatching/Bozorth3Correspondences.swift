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
        // The columns as locals: a debug build copies the whole table at each access through it.
        let probeLength = probe.squaredLength, storedLength = stored.squaredLength
        let probeSmaller = probe.smallerAngle, storedSmaller = stored.smallerAngle
        let probeLarger = probe.largerAngle, storedLarger = stored.largerAngle
        let probeDirection = probe.foldedDirection, storedDirection = stored.foldedDirection
        let probeSwapped = probe.swapped, storedSwapped = stored.swapped
        let probeFirstPoint = probe.first, probeSecondPoint = probe.second
        let storedFirstPoint = stored.first, storedSecondPoint = stored.second
        pairing: for a in 0..<max(0, probeRows) {
            let length = probeLength[a]
            var b = start
            while b < storedRows {
                let other = storedLength[b]
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
                if Bozorth3Numerics.tooFar(probeSmaller[a] &- storedSmaller[b])
                    || Bozorth3Numerics.tooFar(probeLarger[a] &- storedLarger[b]) {
                    b += 1
                    continue
                }
                let rotation = Bozorth3Numerics.normalized(probeDirection[a] &- storedDirection[b])
                // Edges stored the other way round on one side only: the stored ends swap.
                let sameWay = probeSwapped[a] == storedSwapped[b]
                let gk = sameWay ? storedFirstPoint[b] : storedSecondPoint[b]
                let gj = sameWay ? storedSecondPoint[b] : storedFirstPoint[b]
                var key = UInt64(UInt8(truncatingIfNeeded: probeFirstPoint[a])) << 56
                key |= UInt64(UInt8(truncatingIfNeeded: gk)) << 48
                key |= UInt64(UInt8(truncatingIfNeeded: probeSecondPoint[a])) << 40
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

    /// The first row at or after `from` whose (pk, gk) is not below (probePoint, storedPoint),
    /// by binary search: the rows are sorted on (pk, gk). Static, on the columns: see
    /// Bozorth3Scorer.findClusters.
    static func firstRow(from: Int, in probeFirst: [Int32], _ storedFirst: [Int32], probePoint: Int32,
                         storedPoint: Int32) -> Int {
        var low = from
        var high = probeFirst.count
        while low < high {
            let middle = (low + high) / 2
            let pk = probeFirst[middle]
            if pk < probePoint || (pk == probePoint && storedFirst[middle] < storedPoint) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
