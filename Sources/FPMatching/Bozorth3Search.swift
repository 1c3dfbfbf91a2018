import FPCore
import Synchronization

/// One enrolled print ready for matching: the pair table of each of its samples, built once.
public struct Bozorth3Print: Sendable {
    /// The samples' tables, in the order the print stores the samples. A sample the print
    /// repeats shares the table of its first occurrence.
    public let samples: [Bozorth3PairTable]
    /// The samples a comparison scores: each distinct sample once, in the print's order.
    ///
    /// A repeated sample has the same table, so the same score against any probe (a score
    /// depends on the two tables alone, §7), and libfprint's rule "some sample reaches the
    /// threshold" is decided by the distinct ones. virtual_image enrolls one image five
    /// times, so its prints, and every gallery a test suite builds with it, hold one.
    public let distinctSamples: [Bozorth3PairTable]

    /// A print from its samples' minutiae (5 for most image readers, 7 for elanspi).
    public init(samples: [[NBISMinutia]]) {
        var firstIndex: [[NBISMinutia]: Int] = [:]
        var distinct: [Bozorth3PairTable] = []
        self.samples = samples.map { minutiae in
            if let index = firstIndex[minutiae] { return distinct[index] }
            firstIndex[minutiae] = distinct.count
            distinct.append(Bozorth3PairTable(minutiae: minutiae))
            return distinct[distinct.count - 1]
        }
        distinctSamples = distinct
    }

    /// Whether `probe` matches this print as libfprint decides: some sample, taken in
    /// order, scores at least `threshold` (libfprint stops at the first that does).
    func matches(_ probe: Bozorth3PairTable, threshold: Int, with matcher: inout Bozorth3Matcher) throws(Bozorth3.WorkLimitExceeded) -> Bool {
        for sample in distinctSamples where try matcher.score(probe: probe, stored: sample) >= threshold {
            return true
        }
        return false
    }
}

/// Identification over a gallery with libfprint's answer: the **first** print in gallery
/// order that matches, not the best one, found on several cores at once.
public enum Bozorth3Search {
    /// What one search found and what it cost.
    public struct Result: Sendable, Hashable {
        /// The gallery index of the first print that matches; nil when none does.
        public let index: Int?
        /// How many prints were compared with the probe (prints after the first match
        /// that no worker had started are not).
        public let compared: Int
    }

    /// Searches `gallery` for the first print that `probe` matches at `threshold`.
    ///
    /// Workers take prints in gallery order from one counter, so when a match at index i
    /// is known every print before i has been taken by some worker: the search waits for
    /// those and keeps the lowest index that matched, whatever finished first. Prints
    /// after a known match are not started. The comparisons run on their own threads, not
    /// on Swift's cooperative pool, so a long search does not hold up other tasks.
    ///
    /// - Throws: `CancellationError` when the task is cancelled; the workers stop at
    ///   their next print. ``Undecided`` when a print's comparison exceeded
    ///   ``Bozorth3/stepLimit`` and no print before it matched: that print might match, so
    ///   no later one may be answered in its place.
    public static func firstMatch(
        probe: Bozorth3PairTable, gallery: [Bozorth3Print], threshold: Int, workers: Int = defaultWorkers
    ) async throws -> Result {
        try await firstMatch(probe: probe, count: gallery.count, threshold: threshold, workers: workers) { gallery[$0] }
    }

    /// The same over `count` prints that `print` hands out by index, each asked for once at
    /// most and only when a worker gets to it: a caller can build tables on demand, on
    /// every core, and not build those of prints after the first match at all.
    public static func firstMatch(
        probe: Bozorth3PairTable, count: Int, threshold: Int, workers: Int = defaultWorkers,
        print: @escaping @Sendable (Int) -> Bozorth3Print
    ) async throws -> Result {
        let shared = SearchState()
        let gallery = GalleryAccess(count: count, print: print)
        let workers = max(1, min(workers, count))
        try await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask { await threads.run { shared.work(probe: probe, gallery: gallery, threshold: threshold) } }
                }
            }
            if shared.cancelled.load(ordering: .acquiring) { throw CancellationError() }
        } onCancel: {
            shared.cancelled.store(true, ordering: .releasing)
        }
        let best = shared.best.load(ordering: .acquiring)
        let undecided = shared.undecided.load(ordering: .acquiring)
        if undecided < best { throw Undecided(index: undecided) }
        return Result(index: best == Int.max ? nil : best, compared: shared.compared.load(ordering: .acquiring))
    }

    /// A print the search could not compare within ``Bozorth3/stepLimit``, with no match
    /// before it in gallery order.
    public struct Undecided: Error, Sendable, Hashable {
        /// Its gallery index.
        public let index: Int
    }

    /// One worker a core that is online.
    public static var defaultWorkers: Int { BlockingThreads.onlineCores }

    /// Where every search's workers run: threads of their own, one a core for the whole
    /// process, so that two searches at once share the cores instead of each taking all of
    /// them (a worker waiting for a place holds no thread). GCD's global queue, used before,
    /// was a second thread pool with no bound of ours, outside the process's one way off the pool.
    static let threads = BlockingThreads(name: "fpbridge-match", limit: BlockingThreads.onlineCores)
}

/// The gallery as the workers see it.
private struct GalleryAccess: Sendable {
    let count: Int
    let print: @Sendable (Int) -> Bozorth3Print
}

/// What the workers of one search share.
private final class SearchState: Sendable {
    /// The next gallery index to take.
    let next = Atomic<Int>(0)
    /// The lowest index that matched so far (Int.max: none).
    let best = Atomic<Int>(Int.max)
    /// The lowest index whose comparison exceeded its steps (Int.max: none).
    let undecided = Atomic<Int>(Int.max)
    let compared = Atomic<Int>(0)
    let cancelled = Atomic<Bool>(false)

    func work(probe: Bozorth3PairTable, gallery: GalleryAccess, threshold: Int) {
        var matcher = Bozorth3Matcher()
        while !cancelled.load(ordering: .relaxed) {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            // Indices are taken in increasing order: past a known match, or a print that could
            // not be compared, nothing can be first.
            guard index < gallery.count, index < best.load(ordering: .relaxed),
                  index < undecided.load(ordering: .relaxed) else { return }
            do {
                let matched = try gallery.print(index).matches(probe, threshold: threshold, with: &matcher)
                compared.add(1, ordering: .relaxed)
                if matched { lower(best, to: index) }
            } catch {
                compared.add(1, ordering: .relaxed)
                lower(undecided, to: index)
            }
        }
    }

    private func lower(_ value: borrowing Atomic<Int>, to index: Int) {
        var current = value.load(ordering: .relaxed)
        while index < current {
            let (exchanged, original) = value.compareExchange(expected: current, desired: index, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }
}
