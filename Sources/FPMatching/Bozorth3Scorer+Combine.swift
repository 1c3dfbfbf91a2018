extension Bozorth3Scorer {
    /// The heaviest set of mutually compatible clusters bozorth3's search finds
    /// (docs/bozorth3.md §6.6). The search is a backtracking over cliques whose order of
    /// exploration decides the result, so it is kept step for step; only subtrees that
    /// provably cannot raise the result are skipped (§12, shortcut 6), which leaves the
    /// result as it is and removes most of the work on dense cluster graphs.
    ///
    /// Level `t` is a list S[t] (in `levelItems`, from `levelStart[t]` to the next level's
    /// start or the end) and a cursor; S[0] is a cluster's compatibility list, S[t+1] the
    /// part of S[t] from its cursor on that is compatible with the element at the cursor.
    /// Nil when the steps left (`stepsLeft`) run out first.
    mutating func combineClusters() -> Int32? {
        var result: Int32 = 0
        for e in 0..<clusterCount {
            if result >= clusters[e].total { continue }
            levelItems.removeAll(keepingCapacity: true)
            levelStart.removeAll(keepingCapacity: true)
            levelCursor.removeAll(keepingCapacity: true)
            compatibility.appendList(of: e, to: &levelItems)
            levelStart.append(0)
            levelCursor.append(1)
            // Sizes of the heads of levels 0 ..< t, summed, for the bound.
            var headSizes: [Int32] = [0]
            var t = 0, b = 0, n = 1
            while true {
                stepsLeft -= 1
                if stepsLeft < 0 { return nil }
                let start = levelStart[t]
                let count = levelItems.count - start
                if count - levelCursor[t] > 1 {
                    // The scan below costs as many steps as the list has left.
                    stepsLeft -= count - levelCursor[t]
                    let x = Int(levelItems[start + levelCursor[t]])
                    var bound: Int32 = 0
                    let lastOfX = compatibility.last[x]
                    for position in (start + levelCursor[t])..<(start + count) {
                        let v = levelItems[position]
                        if v > lastOfX { break }   // both lists ascend: nothing further is in x's
                        if compatibility.contains(x, Int(v)) {
                            levelItems.append(v)
                            bound &+= clusters[Int(v)].size
                        }
                    }
                    // Every sum inside the new level's subtree adds distinct clusters from
                    // the heads of levels 0...t and from the new level: never above `bound`.
                    bound &+= headSizes[t] &+ clusters[Int(levelItems[start])].size
                    if bound <= result {
                        // Skipped: the state the subtree would have left.
                        levelItems.removeLast(levelItems.count - start - count)
                        b = t + 1
                        levelCursor[t] += 1
                        n = count
                        continue
                    }
                    headSizes.append(headSizes[t] &+ clusters[Int(levelItems[start])].size)
                    levelStart.append(start + count)
                    levelCursor.append(1)
                    t += 1
                    b = t
                    n = 1
                } else {
                    var sum: Int32 = 0
                    for position in (start + n - 1)..<(start + count) { sum &+= clusters[Int(levelItems[position])].size }
                    for u in 0..<b { sum &+= clusters[Int(levelItems[levelStart[u]])].size }
                    result = max(result, sum)
                    b = t
                    // Back to the level above: this level's list is dropped.
                    levelItems.removeLast(count)
                    levelStart.removeLast()
                    levelCursor.removeLast()
                    headSizes.removeLast()
                    t -= 1
                    if t < 0 { break }
                    levelCursor[t] += 1
                    n = levelItems.count - levelStart[t]
                }
            }
        }
        return result
    }
}
