@testable import FPMatching
import Testing

/// A print scores each distinct sample once: a repeated sample (virtual_image enrolls one
/// image five times) has the same table and so the same score, and the print's decision
/// is still libfprint's "some sample reaches the threshold".
@Suite struct Bozorth3PrintTests {
    typealias G = Bozorth3VectorTests

    let finger = G.generated(seed: 1, count: 40)
    let strangerA = G.generated(seed: 20_001, count: 40)
    let strangerB = G.generated(seed: 20_002, count: 40)

    @Test func aRepeatedSampleIsKeptOnceAndSharesItsTable() {
        let print = Bozorth3Print(samples: [strangerA, strangerA, finger, strangerA, finger])
        #expect(print.distinctSamples.map(\.minutiae) == [strangerA, finger])
        // Every sample is still there, in the print's order.
        #expect(print.samples.map(\.minutiae) == [strangerA, strangerA, finger, strangerA, finger])
        #expect(Bozorth3Print(samples: Array(repeating: finger, count: 5)).distinctSamples.count == 1)
        // Samples that differ by one minutia are different samples.
        var moved = finger
        moved[7].x += 1
        #expect(Bozorth3Print(samples: [finger, moved]).distinctSamples.count == 2)
        // ... and so are samples that differ only in one minutia's angle, or in y.
        var turned = finger
        turned[7].theta += 1
        var raised = finger
        raised[7].y += 1
        #expect(Bozorth3Print(samples: [finger, turned, raised]).distinctSamples.count == 3)
    }

    @Test func theDecisionIsEverySamplesDecision() throws {
        let probe = Bozorth3PairTable(minutiae: G.shifted(finger, dx: 3, dy: 2))
        var matcher = Bozorth3Matcher()
        let genuine = try matcher.score(probe: probe, stored: Bozorth3PairTable(minutiae: finger))
        #expect(genuine >= Bozorth3.defaultThreshold)
        // The finger only after repeated strangers, only once, or not at all.
        let prints: [[[NBISMinutia]]] = [
            [strangerA, strangerA, strangerA, strangerA, finger],
            [strangerA, strangerB, strangerA, strangerB, strangerA, strangerB, finger],
            [finger, strangerA, finger],
            Array(repeating: strangerA, count: 5),
            [strangerA, strangerB, strangerB],
        ]
        for samples in prints {
            let print = Bozorth3Print(samples: samples)
            let scores = try samples.map { try matcher.score(probe: probe, stored: Bozorth3PairTable(minutiae: $0)) }
            for threshold in Set(scores.flatMap { [$0, $0 + 1] } + [Bozorth3.defaultThreshold]) {
                #expect(try print.matches(probe, threshold: threshold, with: &matcher) == scores.contains { $0 >= threshold })
            }
        }
    }
}
