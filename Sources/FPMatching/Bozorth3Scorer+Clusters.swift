extension Bozorth3Scorer {
    /// The end of a pass (docs/bozorth3.md §6.4): the members that agree with their mean
    /// rotation become a cluster if there are at least three, and the cluster is compared
    /// with every earlier one.
    mutating func evaluatePass() {
        let list = self.list   // see findClusters
        var total = members.count
        if total >= 3 {
            let mean = Self.meanRotation(of: members, in: list.rotation)
            // Rows dropped here keep the pass's id (quirk Q2): a later pass skips them.
            // (A loop, not removeAll(where:): a closure reading self here copies the scorer.)
            var kept = 0
            for index in 0..<total where !Bozorth3Numerics.tooFar(list.rotation[members[index]] &- mean) {
                members[kept] = members[index]
                kept += 1
            }
            members.removeLast(total - kept)
            total = kept
        }
        if total < 3 {
            for row in members { state[row] = saved[row] == 0 ? -1 : saved[row] }
            // The failed pass gives its id back to the next one.
            passId -= 1
            return
        }
        let size = Int32(total)
        var probeX: Int32 = 0, probeY: Int32 = 0, storedX: Int32 = 0, storedY: Int32 = 0
        var probePoints = Bozorth3PointSet()
        var storedPoints = Bozorth3PointSet()
        for row in members {
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
        let index = Int32(clusters.count)
        let cluster = Bozorth3Cluster(
            size: size, total: size, rotation: Self.meanRotation(of: members, in: list.rotation),
            probeX: probeX / size, probeY: probeY / size, storedX: storedX / size, storedY: storedY / size,
            probePoints: probePoints, storedPoints: storedPoints)
        best = max(best, size)
        for e in 0..<clusters.count where Self.compatible(cluster, clusters[e]) {
            clusters[e].total &+= size
            best = max(best, clusters[e].total)
            compatibleWith[e].append(index)
        }
        clusters.append(cluster)
        if compatibleWith.count < clusters.count {
            compatibleWith.append([index])
        } else {
            // Lists of an earlier comparison are reused for their capacity.
            compatibleWith[Int(index)].removeAll(keepingCapacity: true)
            compatibleWith[Int(index)].append(index)
        }
    }

    /// The mean of the members' rotations, divided by their count.
    /// (Static, like the helpers below: a method call on the large scorer from a mutating
    /// one can copy it.)
    private static func meanRotation(of members: [Int], in rotations: [Int32]) -> Int32 {
        var positiveSum: Int32 = 0, positiveCount: Int32 = 0, negativeSum: Int32 = 0, negativeCount: Int32 = 0
        for row in members {
            let rotation = rotations[row]
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
                                          divisor: Float(members.count))
    }

    /// Whether a new cluster and an earlier one can belong to one match: about the same
    /// rotation, their centroids about as far apart and in the same turned direction on
    /// both samples, and no minutia in common.
    private static func compatible(_ new: Bozorth3Cluster, _ old: Bozorth3Cluster) -> Bool {
        if Bozorth3Numerics.tooFar(new.rotation &- old.rotation) { return false }
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
        return !new.probePoints.intersects(old.probePoints) && !new.storedPoints.intersects(old.storedPoints)
    }

    /// The heaviest set of mutually compatible clusters bozorth3's search finds
    /// (docs/bozorth3.md §6.6); its order of exploration decides the result, so it is kept.
    func combineClusters() -> Int32 {
        var result: Int32 = 0
        var levels: [[Int32]] = []
        var cursors: [Int] = []
        for e in clusters.indices {
            if result >= clusters[e].total { continue }
            levels.removeAll(keepingCapacity: true)
            cursors.removeAll(keepingCapacity: true)
            levels.append(compatibleWith[e])
            cursors.append(1)
            var t = 0, b = 0, n = 1
            while true {
                if levels[t].count - cursors[t] > 1 {
                    let x = Int(levels[t][cursors[t]])
                    let next = levels[t][cursors[t]...].filter { isCompatible(Int($0), with: x) }
                    if levels.count > t + 1 {
                        levels[t + 1] = next
                        cursors[t + 1] = 1
                    } else {
                        levels.append(next)
                        cursors.append(1)
                    }
                    t += 1
                    b = t
                    n = 1
                } else {
                    var sum: Int32 = 0
                    for u in (n - 1)..<levels[t].count { sum &+= clusters[Int(levels[t][u])].size }
                    for u in 0..<b { sum &+= clusters[Int(levels[u][0])].size }
                    result = max(result, sum)
                    b = t
                    t -= 1
                    if t < 0 { break }
                    cursors[t] += 1
                    n = levels[t].count
                }
            }
        }
        return result
    }

    /// Whether `cluster` is in `x`'s compatibility list (x itself, then later clusters, ascending).
    private func isCompatible(_ cluster: Int, with x: Int) -> Bool {
        let list = compatibleWith[x]
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if Int(list[middle]) < cluster { low = middle + 1 } else { high = middle }
        }
        return low < list.count && Int(list[low]) == cluster
    }
}
