import FPCore
@testable import FPMatching
import Foundation
import Synchronization
import Testing

/// Identification over a gallery keeps libfprint's answer however many workers compare:
/// the first print in gallery order that matches, not whichever finished first.
@Suite struct Bozorth3SearchTests {
    typealias G = Bozorth3VectorTests

    /// A print of five samples, each an impression of `finger` (shifted copies), or of
    /// strangers when `finger` is nil.
    static func print(finger: UInt64?, stranger: UInt64) -> Bozorth3Print {
        Bozorth3Print(samples: (0..<5).map { sample in
            guard let finger else { return G.generated(seed: 10_000 + stranger * 7 + UInt64(sample), count: 40) }
            return G.shifted(G.generated(seed: finger, count: 40), dx: Int32(sample), dy: -Int32(sample))
        })
    }

    /// A gallery of strangers with the probe's finger enrolled at `at`.
    static func gallery(count: Int, fingerAt: Set<Int>) -> [Bozorth3Print] {
        (0..<count).map { print(finger: fingerAt.contains($0) ? 1 : nil, stranger: UInt64($0)) }
    }

    let probe = Bozorth3PairTable(minutiae: G.shifted(G.generated(seed: 1, count: 40), dx: 3, dy: 2))

    /// The sequential answer, as libfprint's loop gives it.
    func sequential(_ gallery: [Bozorth3Print]) throws -> Int? {
        var matcher = Bozorth3Matcher()
        return try gallery.firstIndex { try $0.matches(probe, threshold: Bozorth3.defaultThreshold, with: &matcher) }
    }

    @Test(arguments: [1, 2, 3, 8])
    func theFirstMatchInGalleryOrderWinsWhateverTheWorkers(workers: Int) async throws {
        // The finger enrolled three times: a later copy may finish first on another worker.
        let gallery = Self.gallery(count: 60, fingerAt: [17, 18, 41])
        #expect(try sequential(gallery) == 17)
        for _ in 0..<5 {
            let found = try await Bozorth3Search.firstMatch(probe: probe, gallery: gallery, threshold: Bozorth3.defaultThreshold,
                                                            workers: workers)
            #expect(found.index == 17)
            // Everything before the match, the match, and at most one print a worker had
            // already taken per other worker; never the whole gallery.
            #expect(found.compared >= 18 && found.compared <= 17 + workers)
        }
    }

    @Test func noMatchComparesEveryPrint() async throws {
        let gallery = Self.gallery(count: 40, fingerAt: [])
        #expect(try sequential(gallery) == nil)
        let found = try await Bozorth3Search.firstMatch(probe: probe, gallery: gallery, threshold: Bozorth3.defaultThreshold)
        #expect(found == Bozorth3Search.Result(index: nil, compared: 40))
    }

    @Test func theThresholdDecides() async throws {
        // The genuine print's best sample scores s: it matches at s, not at s + 1.
        let gallery = Self.gallery(count: 6, fingerAt: [4])
        var matcher = Bozorth3Matcher()
        let best = try gallery[4].samples.map { try matcher.score(probe: probe, stored: $0) }.max()!
        #expect(best >= Bozorth3.defaultThreshold)
        let strangers = try gallery[0..<4].flatMap(\.samples).map { try matcher.score(probe: probe, stored: $0) }.max()!
        #expect(strangers < best)
        let at = try await Bozorth3Search.firstMatch(probe: probe, gallery: gallery, threshold: best)
        let above = try await Bozorth3Search.firstMatch(probe: probe, gallery: gallery, threshold: best + 1)
        #expect(at.index == 4)
        #expect(above.index == nil)
    }

    @Test func anEmptyGalleryMatchesNothing() async throws {
        let found = try await Bozorth3Search.firstMatch(probe: probe, gallery: [], threshold: Bozorth3.defaultThreshold)
        #expect(found == Bozorth3Search.Result(index: nil, compared: 0))
    }

    @Test func cancellingStopsTheWorkers() async throws {
        let gallery = Self.gallery(count: 300, fingerAt: [])
        let probe = probe
        let search = Task { try await Bozorth3Search.firstMatch(probe: probe, gallery: gallery, threshold: Bozorth3.defaultThreshold) }
        // The race under test: the cancel lands 5 ms into the search of 300 prints, while its workers run.
        try await Task.sleep(for: .milliseconds(5))
        search.cancel()
        await #expect(throws: CancellationError.self) { try await search.value }
    }

    /// Issue 41 §2: the workers ran on GCD's global queue, a thread pool of its own beside the
    /// process's one bounded way off the cooperative pool. Every print is now compared on one
    /// of the search's named threads, and no more of them at once than the bound.
    @Test func theWorkersRunOnTheSearchesOwnBoundedThreads() async throws {
        let gallery = Self.gallery(count: 24, fingerAt: [])
        let names = Mutex<Set<String>>([])
        let running = Atomic<Int>(0), peak = Atomic<Int>(0)
        let found = try await Bozorth3Search.firstMatch(probe: probe, count: gallery.count, threshold: Bozorth3.defaultThreshold,
                                                        workers: 8) { index in
            let now = running.add(1, ordering: .relaxed).newValue
            _ = peak.max(now, ordering: .relaxed)
            defer { running.subtract(1, ordering: .relaxed) }
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            let threadName = comm.trimmingCharacters(in: .whitespacesAndNewlines)
            names.withLock { _ = $0.insert(threadName) }
            return gallery[index]
        }
        #expect(found == Bozorth3Search.Result(index: nil, compared: 24))
        #expect(names.withLock { $0 } == ["fpbridge-match"])
        #expect(peak.load(ordering: .relaxed) <= BlockingThreads.onlineCores)
    }
}
