@testable import FPMatching
import Testing

/// NEXT ALTERNATIVE's shortcut against the library's loop, state by state: when no proposal
/// is already linked, the next consistent combination (found prefix first) must leave
/// exactly what bozorth3's failed tries and undoing leave, call after call until the
/// odometer runs over. The score fixtures reach this path only where some pair happens to;
/// here every kind of state is made on purpose: one to five groups, candidate lists that
/// spill into the next group's slots (quirk Q5), few minutiae so that proposals collide,
/// and links on one side only, as a release leaves them (quirk Q4).
@Suite struct Bozorth3AlternativesTests {
    typealias Generator = Bozorth3ClusterIndexTests.Generator

    /// Minutiae numbered 1...points: few, so that proposals often disagree.
    static let points: Int32 = 8

    /// One state of the odometer: the groups, their candidates and cursors, and the links.
    struct State {
        var groups: Int32 = 0
        var anchor: [Int32] = [0], candidates: [Int32] = [0], cursor: [Int32] = [0]
        var probeCandidates: [Int32] = [], storedCandidates: [Int32] = []
        var links: [(probe: Int32, stored: Int32, sides: Int32)] = []

        init(_ random: inout Generator) {
            groups = random.next(1...5)
            for _ in 1...groups {
                anchor.append(random.next(1...points) * (random.next(0...1) == 0 ? 1 : -1))
                // Up to 12: an 11th and 12th candidate spill into the next group's slots.
                let count = random.next(1...(random.next(0...1) == 0 ? 3 : 12))
                candidates.append(count)
                cursor.append(random.next(1...count))
            }
            probeCandidates = (0..<120).map { _ in random.next(1...points) }
            storedCandidates = (0..<120).map { _ in random.next(1...points) }
            for _ in 0..<random.next(0...6) {
                links.append((random.next(1...points), random.next(1...points), random.next(0...4)))
            }
        }

        /// Puts this state into `scorer` (what an earlier comparison left there is overwritten).
        func apply(to scorer: inout Bozorth3Scorer) {
            scorer.groups = groups
            for b in 0...Int(groups) {
                scorer.anchor[b] = anchor[b]
                scorer.candidates[b] = candidates[b]
                scorer.cursor[b] = cursor[b]
                scorer.chosen[b] = 0
            }
            for i in 0..<120 {
                scorer.probeCandidates[i] = probeCandidates[i]
                scorer.storedCandidates[i] = storedCandidates[i]
            }
            for i in 0...Int(points) {
                scorer.probeToStored[i] = 0
                scorer.storedToProbe[i] = 0
            }
            for link in links {
                // Mostly both ways; sometimes one side only.
                if link.sides != 4 { scorer.probeToStored[Int(link.probe)] = link.stored }
                if link.sides != 3 { scorer.storedToProbe[Int(link.stored)] = link.probe }
            }
        }
    }

    /// What the odometer leaves that a later step reads: the links, the cursors, and the
    /// groups' choices (read only after a call that found a combination).
    static func trace(_ scorer: Bozorth3Scorer, found: Bool) -> [Int32] {
        let groups = Int(scorer.groups)
        var trace: [Int32] = [found ? 1 : 0]
        for i in 0...Int(points) { trace += [scorer.probeToStored[i], scorer.storedToProbe[i]] }
        for b in 1...groups { trace.append(scorer.cursor[b]) }
        if found { for b in 1...groups { trace.append(scorer.chosen[b]) } }
        return trace
    }

    @Test func theShortcutLeavesWhatTheLibrarysLoopLeaves() {
        var a = Bozorth3Scorer(), b = Bozorth3Scorer()
        var random = Generator(state: 26)
        var compared = 0, calls = 0
        var differing: [String] = []
        for seed in 0..<40_000 {
            let state = State(&random)
            state.apply(to: &a)
            state.apply(to: &b)
            guard b.alternativesHaveNoSideEffects() else { continue }
            compared += 1
            // The whole sequence until the odometer runs over. Between calls the pass
            // undoes the combination it was given (every link of it was new: none of the
            // proposals was linked), so the next call starts from the same assignment.
            for step in 0... {
                calls += 1
                let foundLiterally = a.nextAlternativeLiterally()
                let found = b.nextConsistentAlternative()
                if Self.trace(a, found: foundLiterally) != Self.trace(b, found: found) {
                    differing.append("state \(seed), call \(step)")
                    break
                }
                guard found else { break }
                for group in 1...Int(state.groups) {
                    a.unlink(probe: Int(a.chosen[group]))
                    b.unlink(probe: Int(b.chosen[group]))
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ: \(differing.prefix(5))")
        // The generator must reach the shortcut's path often, and whole sequences of it.
        #expect(compared > 10_000)
        #expect(calls > 2 * compared)
        print("odometer: \(compared) states, \(calls) calls compared")
    }

    /// The check that chooses the path matters: where a proposal is already linked, the
    /// shortcut can leave another state than the library's, so nextAlternative must not
    /// take it there (it follows the loop; this test would pass vacuously if it never differed).
    @Test func whereAProposalIsLinkedTheShortcutWouldDiffer() {
        var a = Bozorth3Scorer(), b = Bozorth3Scorer(), c = Bozorth3Scorer()
        var random = Generator(state: 28)
        var differing = 0, wrongPath = 0
        for _ in 0..<40_000 {
            let state = State(&random)
            state.apply(to: &a)
            state.apply(to: &b)
            state.apply(to: &c)
            guard !b.alternativesHaveNoSideEffects() else { continue }
            let foundLiterally = a.nextAlternativeLiterally()
            let found = b.nextConsistentAlternative()
            if Self.trace(a, found: foundLiterally) != Self.trace(b, found: found) { differing += 1 }
            // nextAlternative itself takes the library's loop here.
            let foundByTheScorer = c.nextAlternative()
            if Self.trace(c, found: foundByTheScorer) != Self.trace(a, found: foundLiterally) { wrongPath += 1 }
        }
        #expect(wrongPath == 0)
        #expect(differing > 100)
    }
}
