/// Which clusters are compatible with which: per cluster `e`, a row of bits over the
/// clusters, `e` itself and every later cluster compatible with it (bozorth3's list for `e`,
/// in ascending order when read bit by bit).
struct Bozorth3Compatibility {
    /// Words a row: room for bozorth3's 2,000 clusters.
    static let stride = (Bozorth3Scorer.clusterLimit + 63) / 64
    // All rows at once, at the cluster limit (500 KB; see Bozorth3Arena); copies share them.
    private let arena = Bozorth3Arena()
    private let bits: UnsafeMutablePointer<UInt64>
    private var rows = 0
    /// Per row, the last cluster in its list: the lists are ascending, so an intersection
    /// with one ends there.
    let last: UnsafeMutablePointer<Int32>

    init() {
        bits = arena.make(Bozorth3Scorer.clusterLimit * Self.stride, 0)
        last = arena.make(Bozorth3Scorer.clusterLimit, 0)
    }

    /// Forgets every row (clearing only the words the last comparison used).
    mutating func reset() {
        bits.update(repeating: 0, count: rows * Self.stride)
        rows = 0
    }

    /// A new cluster's row, holding the cluster itself.
    mutating func addRow(_ cluster: Int) {
        rows = cluster + 1
        connect(cluster, cluster)
    }

    /// Records `later` as compatible with `cluster` (`later >= cluster`).
    @inline(__always)
    func connect(_ cluster: Int, _ later: Int) {
        bits[cluster * Self.stride + later >> 6] |= 1 << UInt64(later & 63)
        last[cluster] = Int32(later)
    }

    /// Whether `other` is in `cluster`'s list.
    @inline(__always)
    func contains(_ cluster: Int, _ other: Int) -> Bool {
        bits[cluster * Self.stride + other >> 6] & (1 << UInt64(other & 63)) != 0
    }

    /// `cluster`'s list, ascending, appended to `list`.
    func appendList(of cluster: Int, to list: inout [Int32]) {
        let base = cluster * Self.stride
        for word in (cluster >> 6)..<Self.stride {
            var remaining = bits[base + word]
            while remaining != 0 {
                list.append(Int32(word << 6 + remaining.trailingZeroBitCount))
                remaining &= remaining - 1
            }
        }
    }
}
