/// The scoring of one comparison (docs/bozorth3.md §6): bozorth3's search for clusters of
/// consistent correspondences, then the heaviest compatible set of clusters.
///
/// Every rule below is bozorth3's, quirks included (§6.8): they decide the score, and the
/// score has to be libfprint's to the unit. The state is what the library keeps in globals,
/// reset per comparison (the "fresh" semantics of §7: the correspondence list is empty
/// past its end, as in a process whose first comparison this is).
///
/// Sendable though it holds raw pointers: its only owner is a Bozorth3Matcher, which never
/// scores through memory another copy can reach.
struct Bozorth3Scorer: @unchecked Sendable {
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

    // The working arrays, each at its limit (Bozorth3Arena says why pointers). A copy of a
    // scorer shares them: Bozorth3Matcher makes a new scorer before scoring with a shared one.
    var arena = Bozorth3Arena()
    let state, saved: UnsafeMutablePointer<Int32>
    let probeToStored, storedToProbe: UnsafeMutablePointer<Int32>
    /// Indexed by minutia number, but read at a row number + 1 (quirk Q3): sized for rows.
    let queuedAt: UnsafeMutablePointer<Int32>
    let probeGroup, storedGroup: UnsafeMutablePointer<Int32>

    var groups: Int32 = 0
    let anchor, candidates, cursor, chosen: UnsafeMutablePointer<Int32>
    /// Candidate lists, 10 slots a group in one flat array: an 11th candidate spills into
    /// the next group's slots, as in the library (quirk Q5).
    let probeCandidates, storedCandidates: UnsafeMutablePointer<Int32>

    /// The first row ending at each (pj, gj) pair, or -1; entries set by a comparison are
    /// cleared by the next one (from `previousEnds`), not the whole array.
    let firstEnding, nextEnding, previousEnds: UnsafeMutablePointer<Int32>
    var previousRows = 0
    /// The rows that start at each (pk, gk) pair, `runStart[slot]..<runEnd[slot]`, or
    /// a start of -1; cleared like `firstEnding`.
    let runStart, runEnd, previousRunSlots: UnsafeMutablePointer<Int32>
    var previousRuns = 0

    let queue: UnsafeMutablePointer<Int32>
    var queueCount = 0
    /// The rows of the current pass (each once: a row joins when its state becomes the pass's id).
    let members: UnsafeMutablePointer<Int>
    var memberCount = 0
    var passId: Int32 = 0
    let clusters: UnsafeMutablePointer<Bozorth3Cluster>
    var clusterCount = 0
    /// The clusters' rotations again, read alone by the compatibility scan.
    let clusterRotation: UnsafeMutablePointer<Int32>
    var compatibility = Bozorth3Compatibility()
    /// Which earlier clusters a new one may be compatible with, by rotation and minutiae.
    var clusterIndex = Bozorth3ClusterIndex()
    /// COMBINE's lists, one level after the other, and each level's start and cursor.
    var levelItems: [Int32] = []
    var levelStart: [Int] = []
    var levelCursor: [Int] = []
    var best: Int32 = 0
    /// Passes and COMBINE steps this comparison may still take.
    var stepsLeft = 0

    init() {
        let rows = Bozorth3Correspondences.cap
        state = arena.make(rows, 0)
        saved = arena.make(rows, 0)
        probeToStored = arena.make(Self.pointSlots, 0)
        storedToProbe = arena.make(Self.pointSlots, 0)
        queuedAt = arena.make(rows + 2, Self.notQueued)
        probeGroup = arena.make(Self.pointSlots, 0)
        storedGroup = arena.make(Self.pointSlots, 0)
        anchor = arena.make(12, 0)
        candidates = arena.make(12, 0)
        cursor = arena.make(12, 0)
        chosen = arena.make(12, 0)
        probeCandidates = arena.make(1_000, 0)
        storedCandidates = arena.make(1_000, 0)
        firstEnding = arena.make(Self.pointSlots * Self.pointSlots, -1)
        nextEnding = arena.make(rows, -1)
        previousEnds = arena.make(rows, 0)
        runStart = arena.make(Self.pointSlots * Self.pointSlots, -1)
        runEnd = arena.make(Self.pointSlots * Self.pointSlots, 0)
        previousRunSlots = arena.make(rows, 0)
        queue = arena.make(Self.queueLimit, 0)
        members = arena.make(rows, 0)
        let empty = Bozorth3Cluster(size: 0, total: 0, rotation: 0, probeX: 0, probeY: 0, storedX: 0, storedY: 0,
                                    probePoints: Bozorth3PointSet(), storedPoints: Bozorth3PointSet())
        clusters = arena.make(Self.clusterLimit, empty)
        clusterRotation = arena.make(Self.clusterLimit, 0)
    }

    /// The score of a probe against a stored sample, as libfprint's bozorth3 gives it; nil
    /// when it would take more than `steps` passes and COMBINE steps (§6.7: bozorth3 has no
    /// bound of its own, so past a limit no real print needs there is no answer to give).
    mutating func score(probe probeTable: Bozorth3PairTable, stored storedTable: Bozorth3PairTable, steps: Int) -> Int? {
        // Fewer than 10 minutiae on either side scores 0. The library decides it after
        // pairing; with a fresh correspondence list the pairing changes nothing else.
        if probeTable.minutiae.count < 10 || storedTable.minutiae.count < 10 { return 0 }
        list.fill(probe: probeTable, stored: storedTable)
        probe = probeTable.minutiae
        stored = storedTable.minutiae
        reset()
        stepsLeft = steps
        switch findClusters() {
        case .finished: break
        case .overflow: return Self.overflowScore
        case .overWorkLimit: return nil
        }
        if best < 8 { return Int(best) }
        return combineClusters().map(Int.init)
    }

    /// The slot of a (probe minutia, stored minutia) pair in `firstEnding`.
    @inline(__always)
    static func key(_ probePoint: Int32, _ storedPoint: Int32) -> Int {
        Int(probePoint) &* pointSlots &+ Int(storedPoint)
    }

    private mutating func reset() {
        let list = self.list
        let rows = list.count
        state.update(repeating: 0, count: rows)
        saved.update(repeating: 0, count: rows)
        // Chains of the rows that share an end pair (pj, gj), each ascending: growing a
        // cluster looks for exactly those, where bozorth3 scans the whole list.
        for r in 0..<previousRows { firstEnding[Int(previousEnds[r])] = -1 }
        var r = rows - 1
        while r >= 0 {
            let slot = Self.key(list.probeSecond[r], list.storedSecond[r])
            nextEnding[r] = firstEnding[slot]
            firstEnding[slot] = Int32(r)
            previousEnds[r] = Int32(slot)
            r -= 1
        }
        previousRows = rows
        // Where each run of rows sharing (pk, gk) starts and ends, or -1: cleared the same way.
        for run in 0..<previousRuns { runStart[Int(previousRunSlots[run])] = -1 }
        previousRuns = 0
        var first = 0
        while first < rows {
            let slot = Self.key(list.probeFirst[first], list.storedFirst[first])
            var end = first + 1
            while end < rows && list.probeFirst[end] == list.probeFirst[first]
                && list.storedFirst[end] == list.storedFirst[first] {
                end += 1
            }
            runStart[slot] = Int32(first)
            runEnd[slot] = Int32(end)
            previousRunSlots[previousRuns] = Int32(slot)
            previousRuns += 1
            first = end
        }
        probeToStored.update(repeating: 0, count: Self.pointSlots)
        storedToProbe.update(repeating: 0, count: Self.pointSlots)
        queuedAt.update(repeating: Self.notQueued, count: Self.pointSlots)
        probeGroup.update(repeating: 0, count: Self.pointSlots)
        storedGroup.update(repeating: 0, count: Self.pointSlots)
        clusterCount = 0
        compatibility.reset()
        clusterIndex.reset()
        best = 0
        passId = 0
    }

    /// How the search for clusters ended.
    enum ClusterSearch { case finished, overflow, overWorkLimit }

    /// The passes of every start row.
    private mutating func findClusters() -> ClusterSearch {
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
                stepsLeft -= 1
                if stepsLeft < 0 { return .overWorkLimit }
                passId += 1
                queue[0] = start
                queueCount = 1
                memberCount = 0
                // The start group: the rows that share the start row's (pk, gk).
                var x = k
                repeat {
                    guard add(probePoint: pj[x], storedPoint: gj[x], row: x) else { return .overflow }
                    x += 1
                    // Past the end bozorth3 reads rows an earlier comparison left; in a fresh
                    // list they are zero and never match (minutiae are numbered from 1).
                } while x < rows && gk[x] == target && pk[x] == start
                let grown = x
                // Grow from every queued minutia; the queue grows meanwhile.
                var q = 1
                while q < queueCount {
                    let point = queue[q]
                    let partner = probeToStored[Int(point)]
                    if grown < rows {
                        // The rows ending at (point, partner), ascending, from the chain built for it.
                        let slot = Self.key(point, partner)
                        var r = Int(firstEnding[slot])
                        // Only rows from `grown` on count, and `grown` (the end of row k's group)
                        // never decreases as k advances: the rows before it leave the chain for good.
                        while r >= 0 && r < grown { r = Int(nextEnding[r]) }
                        firstEnding[slot] = Int32(r)
                        while r >= 0 {
                            if pk[r] != start && gk[r] != target {
                                guard add(probePoint: pk[r], storedPoint: gk[r], row: r) else { return .overflow }
                            }
                            r = Int(nextEnding[r])
                        }
                        // The rows starting at (point, partner) from `grown` on: bozorth3 scans
                        // for them, here they are looked up (the list is sorted on (pk, gk)).
                        let first = runStart[slot]
                        if first >= 0 {
                            var y = max(Int(first), grown)
                            let end = Int(runEnd[slot])
                            while y < end {
                                guard add(probePoint: pj[y], storedPoint: gj[y], row: y) else { return .overflow }
                                y += 1
                            }
                        }
                    }
                    q += 1
                }
                // A pass costs about as much as the rows it took.
                stepsLeft -= memberCount
                evaluatePass()
                release(previousGroups: previousGroups)
                let exhausted = !nextAlternative()
                if clusterCount >= Self.clusterLimit { return .finished }   // Q8: no cleanup
                previousGroups = groups
                if exhausted { break }
            }
            unlink(probe: Int(start))
            var b = groups
            while b >= 1 {
                if anchor[Int(b)] < 0 { storedGroup[Int(-anchor[Int(b)])] = 0 } else { probeGroup[Int(anchor[Int(b)])] = 0 }
                b -= 1
            }
        }
        return .finished
    }

    /// Proposes "probe minutia `probePoint` is stored minutia `storedPoint`", from row `row`
    /// (the library's `bz_sift`). Returns false on a queue overflow.
    @inline(__always)   // three call sites in the growing loop: measured 5% faster inlined
    private mutating func add(probePoint: Int32, storedPoint: Int32, row: Int) -> Bool {
        let p = Int(probePoint)
        let g = Int(storedPoint)
        let held = probeToStored[p]
        let holder = storedToProbe[g]
        if held == 0 && holder == 0 {
            if state[row] != passId {
                members[memberCount] = row
                memberCount += 1
                saved[row] = state[row]
                state[row] = passId
            }
            if queueCount >= Self.queueLimit { return false }
            queuedAt[p] = Int32(queueCount)
            queue[queueCount] = probePoint
            queueCount += 1
            probeToStored[p] = storedPoint
            storedToProbe[g] = probePoint
            return true
        }
        if held == storedPoint {
            if state[row] != passId {
                // Q3: the "already queued?" test looks at the row number, not at the minutia.
                if queuedAt[row + 1] == Self.notQueued {
                    if queueCount >= Self.queueLimit { return false }
                    queuedAt[p] = Int32(queueCount)
                    queue[queueCount] = probePoint
                    queueCount += 1
                }
                members[memberCount] = row
                memberCount += 1
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
    @inline(never)   // the rare path, kept out of add's inlined body
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

    /// Drops probe minutia `p`'s link and its partner's link back, when it has one: every
    /// undo in bozorth3 clears through the probe side, so a stored side's link whose probe
    /// side is gone stays. Returns whether there was a link.
    @inline(__always)
    @discardableResult
    func unlink(probe p: Int) -> Bool {
        let partner = probeToStored[p]
        guard partner != 0 else { return false }
        storedToProbe[Int(partner)] = 0
        probeToStored[p] = 0
        return true
    }

    /// Undoes the pass's assignments (bozorth3's order and omissions kept: quirk Q4).
    mutating func release(previousGroups: Int32) {
        var position = queueCount - 1
        while position >= 1 {
            let p = Int(queue[position])
            if unlink(probe: p) { queuedAt[p] = Self.notQueued }
            position -= 1
        }
        var b = previousGroups
        while b >= 1 {
            let p = Int(chosen[Int(b)])
            unlink(probe: p)
            b -= 1
        }
    }
}
