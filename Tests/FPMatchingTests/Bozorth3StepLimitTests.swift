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
}
