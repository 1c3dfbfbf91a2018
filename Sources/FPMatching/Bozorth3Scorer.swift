/// The scoring of one comparison (docs/bozorth3.md §6): bozorth3's search for clusters of
/// consistent correspondences, then the heaviest compatible set of clusters.
///
/// Every rule below is bozorth3's, quirks included (§6.8): they decide the score, and the
/// score has to be libfprint's to the unit. The state is what the library keeps in globals,
/// reset per comparison (the "fresh" semantics of §7: the correspondence list is empty
/// past its end, as in a process whose first comparison this is).
struct Bozorth3Scorer {
    /// The score of a queue overflow: a match for every threshold.
    static let overflowScore = 4_000
    static let queueLimit = 4_000
    static let clusterLimit = 2_000
    /// Conflict groups opened per start row; both branches of one call can pass the test, so 11.
    static let groupLimit: Int32 = 10
    /// "Not queued" in `queuedAt`.
    static let notQueued: Int32 = 1_000
    static let pointSlots = Bozorth3PairTable.maximumMinutiae + 1

    var list = Bozorth3Correspondences()
    var probe: [NBISMinutia] = []
    var stored: [NBISMinutia] = []

    var state: [Int32] = []
    var saved: [Int32] = []
    var probeToStored = [Int32](repeating: 0, count: pointSlots)
    var storedToProbe = [Int32](repeating: 0, count: pointSlots)
    /// Indexed by minutia number, but read at a row number + 1 (quirk Q3): sized for rows.
    var queuedAt = [Int32](repeating: notQueued, count: Bozorth3Correspondences.cap + 2)
    var probeGroup = [Int32](repeating: 0, count: pointSlots)
    var storedGroup = [Int32](repeating: 0, count: pointSlots)

    var groups: Int32 = 0
    var anchor = [Int32](repeating: 0, count: 12)
    var candidates = [Int32](repeating: 0, count: 12)
    var cursor = [Int32](repeating: 0, count: 12)
    var chosen = [Int32](repeating: 0, count: 12)
    /// Candidate lists, 10 slots a group in one flat array: an 11th candidate spills into
    /// the next group's slots, as in the library (quirk Q5).
    var probeCandidates = [Int32](repeating: 0, count: 1_000)
    var storedCandidates = [Int32](repeating: 0, count: 1_000)

    /// The first row ending at each (pj, gj) pair, or -1; entries set by a comparison are
    /// cleared by the next one (from `previousEnds`), not the whole array.
    var firstEnding = [Int32](repeating: -1, count: pointSlots * pointSlots)
    var nextEnding: [Int32] = []
    var previousEnds: [(Int32, Int32)] = []
    var previousRows = 0

    var queue: [Int32] = []
    var members: [Int] = []
    var passId: Int32 = 0
    var clusters: [Bozorth3Cluster] = []
    var compatibility = Bozorth3Compatibility()
    /// COMBINE's lists, one level after the other, and each level's start and cursor.
    var levelItems: [Int32] = []
    var levelStart: [Int] = []
    var levelCursor: [Int] = []
    var best: Int32 = 0

    init() {}

    /// The score of a probe against a stored sample, as libfprint's bozorth3 gives it.
    mutating func score(probe probeTable: Bozorth3PairTable, stored storedTable: Bozorth3PairTable) -> Int {
        // Fewer than 10 minutiae on either side scores 0. The library decides it after
        // pairing; with a fresh correspondence list the pairing changes nothing else.
        if probeTable.minutiae.count < 10 || storedTable.minutiae.count < 10 { return 0 }
        list.fill(probe: probeTable, stored: storedTable)
        probe = probeTable.minutiae
        stored = storedTable.minutiae
        reset()
        guard findClusters() else { return Self.overflowScore }
        if best < 8 { return Int(best) }
        return Int(combineClusters())
    }

    /// The slot of a (probe minutia, stored minutia) pair in `firstEnding`.
    @inline(__always)
    static func key(_ probePoint: Int32, _ storedPoint: Int32) -> Int {
        Int(probePoint) &* pointSlots &+ Int(storedPoint)
    }

    private mutating func reset() {
        let list = self.list   // see findClusters
        let rows = list.count
        state.removeAll(keepingCapacity: true)
        state.append(contentsOf: repeatElement(0, count: rows))
        saved.removeAll(keepingCapacity: true)
        saved.append(contentsOf: repeatElement(0, count: rows))
        // Chains of the rows that share an end pair (pj, gj), each ascending: growing a
        // cluster looks for exactly those, where bozorth3 scans the whole list.
        for r in 0..<previousRows {
            firstEnding[Self.key(previousEnds[r].0, previousEnds[r].1)] = -1
        }
        nextEnding.removeAll(keepingCapacity: true)
        nextEnding.append(contentsOf: repeatElement(-1, count: rows))
        var r = rows - 1
        while r >= 0 {
            let slot = Self.key(list.probeSecond[r], list.storedSecond[r])
            nextEnding[r] = firstEnding[slot]
            firstEnding[slot] = Int32(r)
            r -= 1
        }
        previousEnds.removeAll(keepingCapacity: true)
        for r in 0..<rows { previousEnds.append((list.probeSecond[r], list.storedSecond[r])) }
        previousRows = rows
        for point in 0..<Self.pointSlots {
            probeToStored[point] = 0
            storedToProbe[point] = 0
            queuedAt[point] = Self.notQueued
            probeGroup[point] = 0
            storedGroup[point] = 0
        }
        clusters.removeAll(keepingCapacity: true)
        compatibility.reset()
        best = 0
        passId = 0
    }

    /// The passes of every start row. Returns false on a queue overflow.
    private mutating func findClusters() -> Bool {
        // A local copy of the list (the list is not changed here): reading it through self
        // in a debug build copies the whole scorer at every access.
        // Its columns as locals too: a debug build copies a struct at each method call on it.
        let list = self.list
        let rows = list.count
        let pk = list.probeFirst, gk = list.storedFirst, pj = list.probeSecond, gj = list.storedSecond
        // The last row is never a start (quirk Q1).
        var k = 0
        while k < rows - 1 {
            defer { k += 1 }
            if state[k] != 0 { continue }
            let start = pk[k]
            let target = gk[k]
            storedToProbe[Int(target)] = start
            probeToStored[Int(start)] = target
            groups = 0
            var previousGroups: Int32 = 0
            while true {
                passId += 1
                queue.removeAll(keepingCapacity: true)
                queue.append(start)
                members.removeAll(keepingCapacity: true)
                // The start group: the rows that share the start row's (pk, gk).
                var x = k
                repeat {
                    guard add(probePoint: pj[x], storedPoint: gj[x], row: x) else { return false }
                    x += 1
                    // Past the end bozorth3 reads rows an earlier comparison left; in a fresh
                    // list they are zero and never match (minutiae are numbered from 1).
                } while x < rows && gk[x] == target && pk[x] == start
                let grown = x
                // Grow from every queued minutia; the queue grows meanwhile.
                var q = 1
                while q < queue.count {
                    let point = queue[q]
                    let partner = probeToStored[Int(point)]
                    if grown < rows {
                        // The rows ending at (point, partner), ascending, from the chain built for it.
                        var r = Int(firstEnding[Self.key(point, partner)])
                        while r >= 0 {
                            if r >= grown && pk[r] != start && gk[r] != target {
                                guard add(probePoint: pk[r], storedPoint: gk[r], row: r) else { return false }
                            }
                            r = Int(nextEnding[r])
                        }
                        var y = Bozorth3Correspondences.firstRow(from: grown, in: pk, gk, probePoint: point, storedPoint: partner)
                        if y < rows && gk[y] == partner && pk[y] == point {
                            repeat {
                                guard add(probePoint: pj[y], storedPoint: gj[y], row: y) else { return false }
                                y += 1
                            } while y < rows && gk[y] == partner && pk[y] == point
                        }
                    }
                    q += 1
                }
                evaluatePass()
                release(previousGroups: previousGroups)
                let exhausted = !nextAlternative()
                if clusters.count >= Self.clusterLimit { return true }   // Q8: no cleanup
                previousGroups = groups
                if exhausted { break }
            }
            if probeToStored[Int(start)] != 0 {
                storedToProbe[Int(probeToStored[Int(start)])] = 0
                probeToStored[Int(start)] = 0
            }
            var b = groups
            while b >= 1 {
                if anchor[Int(b)] < 0 { storedGroup[Int(-anchor[Int(b)])] = 0 } else { probeGroup[Int(anchor[Int(b)])] = 0 }
                b -= 1
            }
        }
        return true
    }

    /// Proposes "probe minutia `probePoint` is stored minutia `storedPoint`", from row `row`
    /// (the library's `bz_sift`). Returns false on a queue overflow.
    private mutating func add(probePoint: Int32, storedPoint: Int32, row: Int) -> Bool {
        let p = Int(probePoint)
        let g = Int(storedPoint)
        let held = probeToStored[p]
        let holder = storedToProbe[g]
        if held == 0 && holder == 0 {
            if state[row] != passId {
                members.append(row)
                saved[row] = state[row]
                state[row] = passId
            }
            if queue.count >= Self.queueLimit { return false }
            queuedAt[p] = Int32(queue.count)
            queue.append(probePoint)
            probeToStored[p] = storedPoint
            storedToProbe[g] = probePoint
            return true
        }
        if held == storedPoint {
            if state[row] != passId {
                // Q3: the "already queued?" test looks at the row number, not at the minutia.
                if queuedAt[row + 1] == Self.notQueued {
                    if queue.count >= Self.queueLimit { return false }
                    queuedAt[p] = Int32(queue.count)
                    queue.append(probePoint)
                }
                members.append(row)
                saved[row] = state[row]
                state[row] = passId
            }
            return true
        }
        if groups >= Self.groupLimit { return true }
        // A conflict: the held minutia's group gets the new candidate (both sides may).
        if held != 0 { addCandidate(storedPoint, holding: held, anchor: probePoint, onStoredSide: false) }
        if holder != 0 { addCandidate(probePoint, holding: holder, anchor: storedPoint, onStoredSide: true) }
        return true
    }

    /// Adds `candidate` to the conflict group anchored at `anchorPoint` (a probe minutia, or
    /// a stored one when `onStoredSide`), opening the group with the current `holding` first.
    private mutating func addCandidate(_ candidate: Int32, holding: Int32, anchor anchorPoint: Int32, onStoredSide: Bool) {
        let point = Int(anchorPoint)
        var b = onStoredSide ? storedGroup[point] : probeGroup[point]
        if b == 0 {
            groups += 1
            b = groups
            if onStoredSide { storedGroup[point] = b } else { probeGroup[point] = b }
            candidates[Int(b)] = 1
            cursor[Int(b)] = 1
            anchor[Int(b)] = onStoredSide ? -anchorPoint : anchorPoint
            setCandidate(holding, at: Int(10 * (b - 1)), onStoredSide: onStoredSide)
        }
        let base = Int(10 * (b - 1))
        let n = Int(candidates[Int(b)])
        var known = false
        for c in 0..<n where (onStoredSide ? storedCandidates[base + c] : probeCandidates[base + c]) == candidate {
            known = true
            break
        }
        if !known {
            setCandidate(candidate, at: base + n, onStoredSide: onStoredSide)
            candidates[Int(b)] += 1
        }
    }

    @inline(__always)
    private mutating func setCandidate(_ value: Int32, at index: Int, onStoredSide: Bool) {
        if onStoredSide { storedCandidates[index] = value } else { probeCandidates[index] = value }
    }

    /// Undoes the pass's assignments (bozorth3's order and omissions kept: quirk Q4).
    mutating func release(previousGroups: Int32) {
        var position = queue.count - 1
        while position >= 1 {
            let p = Int(queue[position])
            if probeToStored[p] != 0 {
                storedToProbe[Int(probeToStored[p])] = 0
                probeToStored[p] = 0
                queuedAt[p] = Self.notQueued
            }
            position -= 1
        }
        var b = previousGroups
        while b >= 1 {
            let p = Int(chosen[Int(b)])
            if probeToStored[p] != 0 {
                storedToProbe[Int(probeToStored[p])] = 0
                probeToStored[p] = 0
            }
            b -= 1
        }
    }

    /// Moves to the next combination of the conflict groups' candidates (an odometer, the
    /// last group fastest) and assigns it. Returns false when every combination was tried.
    private mutating func nextAlternative() -> Bool {
        var failed: Int32 = 0
        var d = groups
        while failed >= 0 && d >= 1 {
            if cursor[Int(d)] < candidates[Int(d)] {
                cursor[Int(d)] += 1
                failed = -1
                var b = groups
                while b >= 1 {
                    let p: Int32
                    let g: Int32
                    let index = Int(10 * (b - 1) + cursor[Int(b)] - 1)
                    if anchor[Int(b)] < 0 {
                        g = -anchor[Int(b)]
                        p = storedCandidates[index]
                    } else {
                        p = anchor[Int(b)]
                        g = probeCandidates[index]
                    }
                    let pg = probeToStored[Int(p)]
                    let gp = storedToProbe[Int(g)]
                    if (pg != g && pg != 0) || (gp != p && gp != 0) {
                        failed = b
                        break
                    }
                    probeToStored[Int(p)] = g
                    storedToProbe[Int(g)] = p
                    chosen[Int(b)] = p
                    b -= 1
                }
                if failed >= 1 {
                    var undo = failed + 1
                    while undo <= groups {
                        let p = Int(chosen[Int(undo)])
                        if probeToStored[p] != 0 {
                            storedToProbe[Int(probeToStored[p])] = 0
                            probeToStored[p] = 0
                        }
                        undo += 1
                    }
                    d = groups
                }
            } else {
                cursor[Int(d)] = 1
                d -= 1
            }
        }
        return d >= 1
    }
}
