@testable import FPMatching
import Testing

/// bozorth3 has no bound on its work (docs/bozorth3.md §6.7): a stored sample of a few
/// minutiae repeated many times kept libfprint computing for more than 10 minutes. A
/// comparison now stops at ``Bozorth3/stepLimit`` and has no score, and an identification
/// never answers a later print in place of one it could not compare (issue 36, finding 4).
@Suite struct Bozorth3StepLimitTests {
    typealias G = Bozorth3VectorTests
    /// 40 minutiae within 100 pixels, each 5 times, in stored order: without the limit, 10.6 s
    /// against itself (debug build) to a score of 40.
    static let piled = Bozorth3PairTable(minutiae: G.generated(seed: 3, count: 40, width: 100, height: 100)
        .flatMap { Array(repeating: $0, count: 5) })
    static let stranger = Bozorth3Print(samples: [G.generated(seed: 9, count: 40)])

    @Test func aComparisonPastTheLimitHasNoScore() {
        #expect(throws: Bozorth3.WorkLimitExceeded.self) { try Bozorth3.score(probe: Self.piled, stored: Self.piled) }
    }

    @Test func anIdentificationDoesNotAnswerAPrintAfterOneItCouldNotCompare() async throws {
        let piled = Bozorth3Print(samples: [Self.piled.minutiae])
        // The stranger does not match; the piled print cannot be compared: no answer, not "no match".
        await #expect(throws: Bozorth3Search.Undecided(index: 1)) {
            try await Bozorth3Search.firstMatch(probe: Self.piled, gallery: [Self.stranger, piled, piled], threshold: 40)
        }
    }

    /// The 1:N rule's scoring (issue 50): a print past the limit is unknown, neither low nor
    /// blamed, so the touch is asked again and nobody is answered in its place; the rest of the
    /// gallery is still scored.
    @Test func scoringEveryPrintLeavesOneItCouldNotCompareUnknown() async throws {
        let piled = Bozorth3Print(samples: [Self.piled.minutiae])
        let scored = try await Bozorth3Search.scores(probe: Self.piled, gallery: [Self.stranger, piled])
        #expect(scored.scores.count == 2 && scored.scores[0] != nil && scored.scores[1] == nil)
        let touch = [ScoredCandidate(person: "bob", galleryIndex: 0, score: scored.scores[0]),
                     ScoredCandidate(person: "mallory", galleryIndex: 1, score: scored.scores[1])]
        let decision = IdentificationRules.decide([touch], comparisons: scored.comparisons)
        #expect(decision.confidence.decidingRule == .uncomparable && decision.confidence.uncomparable == 1)
        guard case .anotherTouch = decision else {
            Issue.record("decided \(decision)")
            return
        }
    }
}
