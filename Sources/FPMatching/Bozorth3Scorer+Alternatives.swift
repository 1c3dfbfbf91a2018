extension Bozorth3Scorer {
    /// Moves to the next combination of the conflict groups' candidates (an odometer, the
    /// last group fastest) and assigns it. Returns false when every combination was tried.
    ///
    /// bozorth3 tries each combination in turn, assigning groups from the last to the first
    /// and undoing on the first conflict. When no proposal is already linked in the
    /// assignment (almost always), a failed try leaves it as it was, so the result is the
    /// next combination that agrees with itself and with the assignment: found here with
    /// every combination that shares a disagreeing first groups skipped at once. Otherwise
    /// an undo can drop a link that was there before the try (quirk Q4's kind), and the
    /// library's loop is followed step by step.
    mutating func nextAlternative() -> Bool {
        if groups == 0 { return false }
        if alternativesHaveNoSideEffects() { return nextConsistentAlternative() }
        return nextAlternativeLiterally()
    }

    /// The pair that group `b`'s candidate number `c` (1-based) proposes.
    @inline(__always)
    private func proposal(_ b: Int, _ c: Int32) -> (probe: Int32, stored: Int32) {
        let index = 10 * (b - 1) + Int(c) - 1
        let a = anchor[b]
        return a < 0 ? (storedCandidates[index], -a) : (a, probeCandidates[index])
    }

    /// Whether no proposal of any group is already linked, either way, in the assignment
    /// as it stands: then an attempt that fails leaves the assignment exactly as it found
    /// it, and bozorth3's odometer amounts to finding the next consistent combination.
    func alternativesHaveNoSideEffects() -> Bool {
        for b in 1...Int(groups) {
            for c in 1...candidates[b] {
                let (p, g) = proposal(b, c)
                if probeToStored[Int(p)] == g || storedToProbe[Int(g)] == p { return false }
            }
        }
        return true
    }

    /// Moves the odometer to the next combination after the current one (the last group
    /// fastest) whose proposals agree with each other and with the assignment, and
    /// assigns it; false when none is left (every cursor back at 1). A combination whose
    /// groups 1...b already disagree is skipped with every other that shares them.
    mutating func nextConsistentAlternative() -> Bool {
        let last = Int(groups)
        guard advance(from: last) else { return false }
        while true {
            var conflict = 0
            for b in 1...last {
                let (p, g) = proposal(b, cursor[b])
                let pg = probeToStored[Int(p)], gp = storedToProbe[Int(g)]
                if (pg != g && pg != 0) || (gp != p && gp != 0) {
                    conflict = b
                    break
                }
                probeToStored[Int(p)] = g
                storedToProbe[Int(g)] = p
                chosen[b] = p
            }
            if conflict == 0 { return true }
            for b in 1..<conflict { unlink(probe: Int(chosen[b])) }
            guard advance(from: conflict) else { return false }
        }
    }

    /// Steps the odometer's digit `digit` (carrying towards group 1) and sets every later
    /// digit to 1; false, with every digit at 1, when it runs over.
    @inline(__always)
    private mutating func advance(from digit: Int) -> Bool {
        var d = digit
        while d >= 1 {
            if cursor[d] < candidates[d] {
                cursor[d] += 1
                var e = d + 1
                while e <= Int(groups) { cursor[e] = 1; e += 1 }
                return true
            }
            d -= 1
        }
        for e in 1...Int(groups) { cursor[e] = 1 }
        return false
    }

    /// ``nextAlternative()`` as the library loops, failed tries and their undoing included.
    mutating func nextAlternativeLiterally() -> Bool {
        var failed: Int32 = 0
        var d = groups
        while failed >= 0 && d >= 1 {
            if cursor[Int(d)] < candidates[Int(d)] {
                cursor[Int(d)] += 1
                failed = -1
                var b = groups
                while b >= 1 {
                    let (p, g) = proposal(Int(b), cursor[Int(b)])
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
                        unlink(probe: Int(chosen[Int(undo)]))
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
