import FPCore
import Synchronization

extension Bozorth3Print {
    /// The print's score for `probe`: the best of its distinct samples (every one is compared,
    /// so an enrollment's five impressions all count), as the project's 1:N rule reads it.
    ///
    /// - Throws: ``Bozorth3/WorkLimitExceeded`` at the first sample whose comparison exceeds
    ///   the step limit: that sample could score higher than any other, so the print has no
    ///   score, and a decision must treat it as possibly the best (the other samples are not
    ///   compared: nothing they score could change that).
    func bestScore(_ probe: Bozorth3PairTable, with matcher: inout Bozorth3Matcher) throws(Bozorth3.WorkLimitExceeded) -> Int {
        var best = 0
        for sample in distinctSamples {
            best = max(best, try matcher.score(probe: probe, stored: sample))
        }
        return best
    }
}

extension Bozorth3Search {
    /// Every print's score for one probe, in gallery order.
    public struct Scores: Sendable, Hashable {
        /// The score of each print (the best of its distinct samples); nil for a print whose
        /// comparison exceeded ``Bozorth3/stepLimit`` (its score is unknown, not low).
        public let scores: [Int?]
        /// Sample comparisons made: the sum of the prints' distinct samples. A stranger's
        /// chance of some false score grows with it, so the 1:N threshold is set from it.
        public let comparisons: Int
    }

    /// Scores `probe` against every one of `count` prints, on several cores: the project's 1:N
    /// decision (``IdentificationRules``) needs the best candidate and the runner-up, so no
    /// print is skipped, whatever an earlier one scored.
    ///
    /// - Throws: `CancellationError` when the task is cancelled; the workers stop at their
    ///   next print.
    public static func scores(
        probe: Bozorth3PairTable, count: Int, workers: Int = defaultWorkers,
        print: @escaping @Sendable (Int) -> Bozorth3Print
    ) async throws -> Scores {
        let shared = ScoringState(count: count)
        let gallery = ScoredGallery(count: count, print: print)
        let workers = max(1, min(workers, count))
        try await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask { await threads.run { shared.work(probe: probe, gallery: gallery) } }
                }
            }
            if shared.cancelled.load(ordering: .acquiring) { throw CancellationError() }
        } onCancel: {
            shared.cancelled.store(true, ordering: .releasing)
        }
        return shared.result()
    }

    /// The same over prints already built.
    public static func scores(probe: Bozorth3PairTable, gallery: [Bozorth3Print], workers: Int = defaultWorkers) async throws -> Scores {
        try await scores(probe: probe, count: gallery.count, workers: workers) { gallery[$0] }
    }
}

/// The gallery as the scoring workers see it.
private struct ScoredGallery: Sendable {
    let count: Int
    let print: @Sendable (Int) -> Bozorth3Print
}

/// What the workers of one scoring share: the next index to take and each print's score.
private final class ScoringState: Sendable {
    let next = Atomic<Int>(0)
    let cancelled = Atomic<Bool>(false)
    /// Each print's score, written once by the worker that took it.
    private let results: Mutex<[Int?]>
    private let comparisons = Atomic<Int>(0)

    init(count: Int) {
        results = Mutex(Array(repeating: nil, count: count))
    }

    func work(probe: Bozorth3PairTable, gallery: ScoredGallery) {
        var matcher = Bozorth3Matcher()
        var mine: [(Int, Int?)] = []
        var compared = 0
        while !cancelled.load(ordering: .relaxed) {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < gallery.count else { break }
            let print = gallery.print(index)
            compared += print.distinctSamples.count
            mine.append((index, try? print.bestScore(probe, with: &matcher)))
        }
        comparisons.add(compared, ordering: .relaxed)
        results.withLock { results in
            for (index, score) in mine { results[index] = score }
        }
    }

    func result() -> Bozorth3Search.Scores {
        Bozorth3Search.Scores(scores: results.withLock { $0 }, comparisons: comparisons.load(ordering: .acquiring))
    }
}
