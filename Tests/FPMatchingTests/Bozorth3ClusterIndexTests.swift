@testable import FPMatching
import Testing

/// The cluster index finds exactly the earlier clusters bozorth3's scan lets through its
/// first two compatibility tests: rotation within 11° (round the circle), no minutia shared.
@Suite struct Bozorth3ClusterIndexTests {
    /// A small deterministic generator (SplitMix64), so a failure names its seed.
    struct Generator {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int32>) -> Int32 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + Int32(z % UInt64(range.upperBound - range.lowerBound + 1))
        }
    }

    static func cluster(_ random: inout Generator, rotations: ClosedRange<Int32>) -> Bozorth3Cluster {
        var probePoints = Bozorth3PointSet(), storedPoints = Bozorth3PointSet()
        for _ in 0..<random.next(2...6) {
            probePoints.insert(random.next(1...200))
            storedPoints.insert(random.next(1...200))
        }
        return Bozorth3Cluster(size: 3, total: 3, rotation: random.next(rotations), probeX: 0, probeY: 0,
                               storedX: 0, storedY: 0, probePoints: probePoints, storedPoints: storedPoints)
    }

    /// What bozorth3's scan keeps of clusters `0..<clusters.count` for `new`.
    static func scanned(_ clusters: [Bozorth3Cluster], _ new: Bozorth3Cluster) -> [Int] {
        clusters.indices.filter { e in
            !Bozorth3Numerics.tooFar(new.rotation &- clusters[e].rotation)
                && !new.probePoints.intersects(clusters[e].probePoints)
                && !new.storedPoints.intersects(clusters[e].storedPoints)
        }
    }

    static func found(_ index: Bozorth3ClusterIndex, _ new: Bozorth3Cluster) -> [Int] {
        let words = index.findCandidates(for: new)
        return (0..<words).flatMap { word in
            (0..<64).filter { index.candidates[word] & (1 << UInt64($0)) != 0 }.map { word * 64 + $0 }
        }
    }

    @Test(arguments: [(UInt64(1), 300, Int32(-179)...180), (2, 2_000, -179...180), (3, 600, -20...20), (4, 600, 165...180)])
    func theIndexFindsWhatTheScanKeeps(seed: UInt64, count: Int, rotations: ClosedRange<Int32>) {
        var random = Generator(state: seed)
        var index = Bozorth3ClusterIndex()
        // Twice over the same index: the second round starts from a reset.
        for _ in 0..<2 {
            index.reset()
            var clusters: [Bozorth3Cluster] = []
            var mismatches = 0
            for i in 0..<count {
                // Rotations near ±180 too, where 11° wraps round.
                let new = Self.cluster(&random, rotations: rotations)
                let covered = index.covers(new.rotation)
                #expect(covered)
                if Self.found(index, new) != Self.scanned(clusters, new) { mismatches += 1 }
                index.register(i, new)
                clusters.append(new)
            }
            #expect(mismatches == 0, "seed \(seed)")
        }
    }

    @Test func aRotationOutsideTheCircleStopsTheIndexUntilReset() {
        var index = Bozorth3ClusterIndex()
        let answers = [index.covers(180), index.covers(-180), index.covers(0)]
        #expect(answers == [true, false, false])
        index.reset()
        let again = [index.covers(0), index.covers(181)]
        #expect(again == [true, false])
    }
}
