import Foundation
import FPMatching
import Testing

/// The matcher's scores against libfprint's own, pair by pair: any difference fails.
@Suite struct ScoreForScoreTests {
    /// Compares every pair of a fixture; returns the pairs that differ, described.
    static func mismatches(in fixture: PairFixture) -> (compared: Int, differing: [String], seconds: Double) {
        var tables: [String: Bozorth3PairTable] = [:]
        func table(_ reference: String) -> Bozorth3PairTable {
            if let known = tables[reference] { return known }
            let made = Bozorth3PairTable(minutiae: fixture.minutiae(reference))
            tables[reference] = made
            return made
        }
        var matcher = Bozorth3Matcher()
        var differing: [String] = []
        let clock = ContinuousClock()
        var spent = Duration.zero
        for pair in fixture.pairs {
            let probe = table(pair.probe), stored = table(pair.stored)
            var score: Int?
            spent += clock.measure { score = try? matcher.score(probe: probe, stored: stored) }
            if score != pair.score {
                differing.append("\(pair.probe) vs \(pair.stored): \(score.map(String.init) ?? "over the step limit"), libfprint \(pair.score)")
            }
        }
        let seconds = Double(spent.components.seconds) + Double(spent.components.attoseconds) / 1e18
        return (fixture.pairs.count, differing, seconds)
    }

    @Test func everyPairOfTheBundledFixtureScoresAsInLibfprint() throws {
        let fixture = try PairFixture.bundled("bozorth3-pairs.txt")
        let result = Self.mismatches(in: fixture)
        #expect(result.compared >= 400)
        #expect(result.differing.isEmpty, "\(result.differing.count) of \(result.compared) differ: \(result.differing.prefix(20))")
        print("bozorth3: \(result.compared) pairs, \(result.differing.count) differ, \(Int(result.seconds / Double(result.compared) * 1e6)) us a pair")
    }

    /// The pairs where bozorth3's odometer, failing a try, drops a link that was there
    /// before it: taking the shortcut there too (next consistent combination) changes
    /// these scores, so the scorer must see that and follow the library's loop.
    @Test func thePairsWhoseFailedTriesDropALinkScoreAsInLibfprint() throws {
        let fixture = try PairFixture.bundled("bozorth3-undo-pairs.txt")
        let result = Self.mismatches(in: fixture)
        #expect(result.compared == 6)
        #expect(result.differing.isEmpty, "\(result.differing)")
    }

    /// The long run: FPMATCHING_FIXTURE names a fixture made by `bench/bz3-fixture.py large`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FPMATCHING_FIXTURE"] != nil))
    func everyPairOfALargeFixtureScoresAsInLibfprint() throws {
        let fixture = try PairFixture(path: ProcessInfo.processInfo.environment["FPMATCHING_FIXTURE"]!)
        let result = Self.mismatches(in: fixture)
        #expect(result.differing.isEmpty, "\(result.differing.count) of \(result.compared) differ: \(result.differing.prefix(20))")
        print("bozorth3: \(result.compared) pairs, \(result.differing.count) differ, \(Int(result.seconds / Double(result.compared) * 1e6)) us a pair")
    }
}
