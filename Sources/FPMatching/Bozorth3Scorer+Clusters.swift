extension Bozorth3Scorer {
    /// The end of a pass (docs/bozorth3.md §6.4): the members that agree with their mean
    /// rotation become a cluster if there are at least three, and the cluster is compared
    /// with every earlier one.
    mutating func evaluatePass() {
        let list = self.list
        let members = self.members
        var total = memberCount
        if total >= 3 {
            let mean = Self.meanRotation(of: members, total, in: list.rotation)
            // Rows dropped here keep the pass's id (quirk Q2): a later pass skips them.
            var kept = 0
            for index in 0..<total where !Bozorth3Numerics.tooFar(list.rotation[members[index]] &- mean) {
                members[kept] = members[index]
                kept += 1
            }
            total = kept
            memberCount = kept
        }
        if total < 3 {
            for index in 0..<total {
                let row = members[index]
                state[row] = saved[row] == 0 ? -1 : saved[row]
            }
            // The failed pass gives its id back to the next one.
            passId -= 1
            return
        }
        let size = Int32(total)
        var probeX: Int32 = 0, probeY: Int32 = 0, storedX: Int32 = 0, storedY: Int32 = 0
        var probePoints = Bozorth3PointSet()
        var storedPoints = Bozorth3PointSet()
        for index in 0..<total {
            let row = members[index]
            // Centroids of the start minutiae only (quirk Q7).
            let pk = list.probeFirst[row], gk = list.storedFirst[row]
            probeX &+= probe[Int(pk) - 1].x
            probeY &+= probe[Int(pk) - 1].y
            storedX &+= stored[Int(gk) - 1].x
            storedY &+= stored[Int(gk) - 1].y
            probePoints.insert(pk)
            probePoints.insert(list.probeSecond[row])
            storedPoints.insert(gk)
            storedPoints.insert(list.storedSecond[row])
        }
        let index = clusterCount
        let cluster = Bozorth3Cluster(
            size: size, total: size, rotation: Self.meanRotation(of: members, total, in: list.rotation),
            probeX: probeX / size, probeY: probeY / size, storedX: storedX / size, storedY: storedY / size,
            probePoints: probePoints, storedPoints: storedPoints)
        best = max(best, size)
        let rotation = cluster.rotation
        // The order in which earlier clusters are found compatible does not matter: each
        // update touches that cluster's total and row alone, and `best` is a maximum.
        if clusterIndex.covers(rotation) {
            let words = clusterIndex.findCandidates(for: cluster)
            let candidates = clusterIndex.candidates
            for word in 0..<words {
                var remaining = candidates[word]
                while remaining != 0 {
                    let e = word << 6 + remaining.trailingZeroBitCount
                    remaining &= remaining &- 1
                    if Self.agreeInPlace(cluster, clusters[e]) { connect(e, to: index, size: size) }
                }
            }
        } else {
            for e in 0..<clusterCount {
                // compatible's first test, here on a column of its own: most earlier clusters
                // fail it, and the call and the whole cluster's load then cost more than the test.
                if Bozorth3Numerics.tooFar(rotation &- clusterRotation[e]) || !Self.compatible(cluster, clusters[e]) {
                    continue
                }
                connect(e, to: index, size: size)
            }
        }
        compatibility.addRow(index)
        clusters[index] = cluster
        clusterRotation[index] = rotation
        clusterIndex.register(index, cluster)
        clusterCount += 1
    }

    /// Earlier cluster `e` is compatible with the new cluster `index` of `size` rows.
    @inline(__always)
    private mutating func connect(_ e: Int, to index: Int, size: Int32) {
        clusters[e].total &+= size
        best = max(best, clusters[e].total)
        compatibility.connect(e, index)
    }

    /// The mean of the first `count` members' rotations, divided by their count.
    private static func meanRotation(of members: UnsafeMutablePointer<Int>, _ count: Int,
                                     in rotations: UnsafeMutablePointer<Int32>) -> Int32 {
        var positiveSum: Int32 = 0, positiveCount: Int32 = 0, negativeSum: Int32 = 0, negativeCount: Int32 = 0
        for index in 0..<count {
            let rotation = rotations[members[index]]
            if rotation >= 0 {
                positiveSum &+= rotation
                positiveCount += 1
            } else {
                negativeSum &+= rotation
                negativeCount += 1
            }
        }
        return Bozorth3Numerics.meanAngle(positiveSum: positiveSum, positiveCount: positiveCount,
                                          negativeSum: negativeSum, negativeCount: negativeCount,
                                          divisor: Float(count))
    }

    /// Whether a new cluster and an earlier one can belong to one match: about the same
    /// rotation, their centroids about as far apart and in the same turned direction on
    /// both samples, and no minutia in common.
    private static func compatible(_ new: Bozorth3Cluster, _ old: Bozorth3Cluster) -> Bool {
        if Bozorth3Numerics.tooFar(new.rotation &- old.rotation) { return false }
        // The tests have no effects, so their order is free: the cheap one before the arctangents.
        if new.probePoints.intersects(old.probePoints) || new.storedPoints.intersects(old.storedPoints) {
            return false
        }
        return agreeInPlace(new, old)
    }

    /// compatible's last two tests: the centroids about as far apart, and in the same
    /// turned direction, on both samples.
    private static func agreeInPlace(_ new: Bozorth3Cluster, _ old: Bozorth3Cluster) -> Bool {
        let probeDX = new.probeX &- old.probeX, probeDY = new.probeY &- old.probeY
        let storedDX = new.storedX &- old.storedX, storedDY = new.storedY &- old.storedY
        let probeLength = Float(probeDX &* probeDX &+ probeDY &* probeDY)
        let storedLength = Float(storedDX &* storedDX &+ storedDY &* storedDY)
        let limit = Bozorth3Numerics.tenth * (probeLength + storedLength)
        let difference = probeLength - storedLength
        if difference * difference > limit * limit { return false }
        let probeDirection = Bozorth3Numerics.vectorDirection(dx: probeDX, dy: probeDY)
        let storedDirection = Bozorth3Numerics.vectorDirection(dx: storedDX, dy: storedDY)
        let rotation = Bozorth3Numerics.meanAngle(new.rotation, old.rotation)
        if Bozorth3Numerics.tooFar(rotation &- Bozorth3Numerics.normalized(probeDirection &- storedDirection)) {
            return false
        }
        return true
    }
}
