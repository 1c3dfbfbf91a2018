/// A cluster: a set of at least three correspondences that agree on one rotation,
/// found by one pass of the scoring (docs/bozorth3.md §6.4).
struct Bozorth3Cluster {
    /// Correspondences in the cluster.
    var size: Int32
    /// Its size plus the sizes of the later clusters found compatible with it.
    var total: Int32
    /// The mean rotation of its correspondences.
    var rotation: Int32
    /// Centroids of the probe's and the stored sample's start minutiae (integer means).
    var probeX: Int32, probeY: Int32, storedX: Int32, storedY: Int32
    /// The probe minutiae and the stored minutiae it uses.
    var probePoints: Bozorth3PointSet
    var storedPoints: Bozorth3PointSet
    // Which clusters it is compatible with is kept beside it (Bozorth3Scorer.compatibility),
    // so that a cluster is plain data and copying one counts no references.
}

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

/// Which clusters are compatible with which: per cluster `e`, a row of bits over the
/// clusters, `e` itself and every later cluster compatible with it (bozorth3's list for `e`,
/// in ascending order when read bit by bit).
struct Bozorth3Compatibility {
    /// Words a row: room for bozorth3's 2,000 clusters.
    static let stride = (Bozorth3Scorer.clusterLimit + 63) / 64
    private var bits: [UInt64] = []
    private var rows = 0
    /// Per row, the last cluster in its list: the lists are ascending, so an intersection
    /// with one ends there.
    private(set) var last: [Int32] = []

    /// Forgets every row (clearing only the words the last comparison used).
    mutating func reset() {
        for index in 0..<(rows * Self.stride) { bits[index] = 0 }
        rows = 0
    }

    /// A new cluster's row, holding the cluster itself.
    mutating func addRow(_ cluster: Int) {
        if bits.count < (cluster + 1) * Self.stride {
            bits.append(contentsOf: repeatElement(0, count: (cluster + 1) * Self.stride - bits.count))
        }
        rows = cluster + 1
        if last.count < rows { last.append(0) }
        connect(cluster, cluster)
    }

    /// Records `later` as compatible with `cluster` (`later >= cluster`).
    @inline(__always)
    mutating func connect(_ cluster: Int, _ later: Int) {
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
