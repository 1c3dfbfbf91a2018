/// The earlier clusters a new one may be compatible with, found a word at a time: those
/// whose rotation is within 11° of the new one's and that share no minutia with it
/// (docs/bozorth3.md §6.4, compatibility's first two tests).
///
/// bozorth3 tests every earlier cluster in turn; with hundreds of clusters a comparison
/// that was a third of the scoring's time. Here each rotation (a degree) and each minutia
/// keeps a bitset of the clusters that have it, so the candidates are an OR of 23 degrees'
/// bitsets less the bitsets of the new cluster's minutiae. Exact for rotations in
/// (-180, 180]: two such rotations pass compatibility's angle test (`11 < |d| < 349`
/// fails) exactly when they are at most 11° apart round the circle. Every cluster has
/// one (a row's rotation is a difference of edge directions brought into the range, and
/// a cluster's mean stays in it, §9); should another ever come, the rest of that
/// comparison tests every earlier cluster, as the library does.
///
/// Shared by copies like the scorer's other working arrays (see ``Bozorth3Arena``).
struct Bozorth3ClusterIndex {
    /// Words of one bitset: room for bozorth3's 2,000 clusters.
    static let stride = (Bozorth3Scorer.clusterLimit + 63) / 64
    static let degrees = 360
    private let arena = Bozorth3Arena()
    /// Per degree (rotation + 179), the clusters of that rotation.
    private let byDegree: UnsafeMutablePointer<UInt64>
    /// Per probe minutia and per stored minutia (1...200), the clusters that use it.
    private let byProbePoint, byStoredPoint: UnsafeMutablePointer<UInt64>
    /// The candidates of the cluster being added.
    let candidates: UnsafeMutablePointer<UInt64>
    /// Clusters registered so far (their bits are the only ones set).
    private var registered = 0
    /// False once a rotation outside (-180, 180] was seen: the rest of the comparison scans.
    private var usable = true

    init() {
        let points = Bozorth3Scorer.pointSlots
        byDegree = arena.make(Self.degrees * Self.stride, 0)
        byProbePoint = arena.make(points * Self.stride, 0)
        byStoredPoint = arena.make(points * Self.stride, 0)
        candidates = arena.make(Self.stride, 0)
    }

    /// Forgets every cluster, clearing only the words the last comparison used.
    mutating func reset() {
        let words = (registered + 63) >> 6
        if words > 0 {
            for degree in 0..<Self.degrees { (byDegree + degree * Self.stride).update(repeating: 0, count: words) }
            for point in 0..<Bozorth3Scorer.pointSlots {
                (byProbePoint + point * Self.stride).update(repeating: 0, count: words)
                (byStoredPoint + point * Self.stride).update(repeating: 0, count: words)
            }
        }
        registered = 0
        usable = true
    }

    /// Whether the index can answer for a cluster of this rotation; if not, it stops
    /// answering for the rest of the comparison (the caller scans instead).
    mutating func covers(_ rotation: Int32) -> Bool {
        if usable && !(rotation > -180 && rotation <= 180) { usable = false }
        return usable
    }

    /// Fills `candidates` with the clusters registered so far that are within 11° of
    /// `cluster`'s rotation and share no minutia with it; returns how many words it filled.
    func findCandidates(for cluster: Bozorth3Cluster) -> Int {
        let rotation = cluster.rotation
        let words = (registered + 63) >> 6
        guard words > 0 else { return 0 }
        candidates.update(repeating: 0, count: words)
        for step: Int32 in -11...11 {
            var degree = Int(rotation &+ step) + 179
            if degree < 0 { degree += Self.degrees } else if degree >= Self.degrees { degree -= Self.degrees }
            let row = byDegree + degree * Self.stride
            for word in 0..<words { candidates[word] |= row[word] }
        }
        cluster.probePoints.forEach { point in
            let row = byProbePoint + Int(point) * Self.stride
            for word in 0..<words { candidates[word] &= ~row[word] }
        }
        cluster.storedPoints.forEach { point in
            let row = byStoredPoint + Int(point) * Self.stride
            for word in 0..<words { candidates[word] &= ~row[word] }
        }
        return words
    }

    /// Adds cluster number `index` (the next one) with its rotation and minutiae.
    mutating func register(_ index: Int, _ cluster: Bozorth3Cluster) {
        guard usable else { return }
        let word = index >> 6, bit = UInt64(1) << UInt64(index & 63)
        byDegree[(Int(cluster.rotation) + 179) * Self.stride + word] |= bit
        cluster.probePoints.forEach { byProbePoint[Int($0) * Self.stride + word] |= bit }
        cluster.storedPoints.forEach { byStoredPoint[Int($0) * Self.stride + word] |= bit }
        registered = index + 1
    }
}
