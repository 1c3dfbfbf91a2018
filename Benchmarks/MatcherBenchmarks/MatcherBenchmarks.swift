import Benchmark
import FPMatching
import Foundation
import Synchronization

// What one bozorth3 comparison costs in-process, without a reader, a scan or a process: the
// per-comparison rows of issue 26, beside the whole identifications bench/run.py times.
// The pairs are the score-for-score fixture's (Tests/FPMatchingTests/Fixtures): the bench
// gallery's enrolled samples (gf*) against the same fingers' second impressions as libfprint
// detects them (pf*). Each iteration takes the next pair in turn, so a row is the mean over
// every finger, not one lucky pair. `bash bench/inprocess.sh --target MatcherBenchmarks` runs them.

private let smoke = getenv("FPBRIDGE_BENCH_SMOKE") != nil

/// Ends the run with what failed: run directly (the smoke run), the benchmark library drops
/// a benchmark's error and exits 0.
private func fail(_ what: String) -> Never {
    FileHandle.standardError.write(Data("MatcherBenchmarks: \(what)\n".utf8))
    exit(1)
}

/// The fixture's pairs of one kind, with their tables built and their scores known.
private struct Pairs: Sendable {
    struct Pair: Sendable {
        let probe: Bozorth3PairTable
        let stored: Bozorth3PairTable
        let score: Int
    }

    let pairs: [Pair]
    /// The stored samples' minutiae, for the rows that build tables.
    let storedMinutiae: [[NBISMinutia]]

    /// Pairs of a second impression (pf*) against an enrolled sample (gf*): the same finger
    /// when `genuine`, two different fingers when not.
    init(genuine: Bool) {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Tests/FPMatchingTests/Fixtures/bozorth3-pairs.txt").standardized.path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
        var sets: [Substring: [NBISMinutia]] = [:]
        var wanted: [(Substring, Substring, Int)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "set", fields.count >= 3, let count = Int(fields[2]) {
                let values = fields.dropFirst(3).compactMap { Int32($0) }
                guard values.count == 3 * count else { fail("set \(fields[1]) is malformed") }
                sets[fields[1]] = (0..<count).map {
                    NBISMinutia(x: values[3 * $0], y: values[3 * $0 + 1], theta: values[3 * $0 + 2])
                }
            } else if fields.first == "pair", fields.count == 4, fields[1].hasPrefix("pf"), fields[2].hasPrefix("gf"),
                      !fields[1].contains(":"), !fields[2].contains(":"),  // whole samples only, not cut ones
                      let score = Int(fields[3]), (fields[1].dropFirst(2) == fields[2].dropFirst(2)) == genuine {
                wanted.append((fields[1], fields[2], score))
            }
        }
        var pairs: [Pair] = []
        var stored: [[NBISMinutia]] = []
        for (probe, sample, score) in wanted {
            guard let probeMinutiae = sets[probe], let storedMinutiae = sets[sample] else { fail("pair \(probe) \(sample) names no set") }
            pairs.append(Pair(probe: Bozorth3PairTable(minutiae: probeMinutiae), stored: Bozorth3PairTable(minutiae: storedMinutiae),
                              score: score))
            stored.append(storedMinutiae)
        }
        guard !pairs.isEmpty else { fail("the fixture has no \(genuine ? "genuine" : "impostor") pf/gf pairs") }
        self.pairs = pairs
        self.storedMinutiae = stored
    }
}

private let genuine = Pairs(genuine: true)
private let impostor = Pairs(genuine: false)

/// Where a row is in its pairs, and its matcher: kept from one sample to the next (the library
/// calls a benchmark's closure once per sample), so every sample compares the next pair with
/// warm working memory, as a search's worker does. A new matcher's memory costs more than a
/// comparison: measured once per row here, not once per sample.
private final class Turn: Sendable {
    private struct Cursor {
        var matcher = Bozorth3Matcher()
        var next = 0
    }

    private let cursor = Mutex(Cursor())

    /// Scores the next pair of `set` on each iteration; a score other than libfprint's ends
    /// the run (the benchmark would otherwise time a wrong answer).
    func compare(_ benchmark: Benchmark, _ set: Pairs, buildingTables: Bool) {
        cursor.withLock { cursor in
            for _ in benchmark.scaledIterations {
                let pair = set.pairs[cursor.next]
                // libfprint's way: the stored sample's table rebuilt for the comparison (and the
                // probe's once per stored print, which this leaves out).
                let stored = buildingTables ? Bozorth3PairTable(minutiae: set.storedMinutiae[cursor.next]) : pair.stored
                let score = try? cursor.matcher.score(probe: pair.probe, stored: stored)
                if score != pair.score { fail("'\(benchmark.name)': score \(score.map(String.init) ?? "over the step limit"), libfprint's \(pair.score)") }
                blackHole(score)
                cursor.next = (cursor.next + 1) % set.pairs.count
            }
        }
    }

    /// Scores the next pair with a matcher made for it (`Bozorth3.score`) on each iteration.
    func compareWithNewMatchers(_ benchmark: Benchmark, _ set: Pairs) {
        cursor.withLock { cursor in
            for _ in benchmark.scaledIterations {
                let pair = set.pairs[cursor.next]
                blackHole(try? Bozorth3.score(probe: pair.probe, stored: pair.stored))
                cursor.next = (cursor.next + 1) % set.pairs.count
            }
        }
    }

    /// Builds the next sample's table on each iteration.
    func buildTable(_ benchmark: Benchmark, _ set: Pairs) {
        cursor.withLock { cursor in
            for _ in benchmark.scaledIterations {
                blackHole(Bozorth3PairTable(minutiae: set.storedMinutiae[cursor.next]).usedRows)
                cursor.next = (cursor.next + 1) % set.storedMinutiae.count
            }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: smoke ? .milliseconds(1) : .seconds(3),
        maxIterations: smoke ? 2 : 100_000
    )

    // The comparison fpbridge's identification makes: both tables already built (the stored
    // one cached with the print, the probe's once per scan), the matcher's memory reused.
    let genuineTurn = Turn(), impostorTurn = Turn(), builtTurn = Turn(), newTurn = Turn(), tableTurn = Turn()
    Benchmark("bozorth3: one comparison, genuine (\(genuine.pairs.count) fingers in turn), tables cached") { benchmark in
        genuineTurn.compare(benchmark, genuine, buildingTables: false)
    }
    Benchmark("bozorth3: one comparison, impostor (\(impostor.pairs.count) pairs in turn), tables cached") { benchmark in
        impostorTurn.compare(benchmark, impostor, buildingTables: false)
    }
    // The same with the stored sample's table built each time, as libfprint does: the share
    // of a comparison that the cache saves.
    Benchmark("bozorth3: one comparison, impostor, stored table built each time") { benchmark in
        builtTurn.compare(benchmark, impostor, buildingTables: true)
    }
    // A matcher made for one comparison (`Bozorth3.score`): its working memory set up first.
    // A search makes one per worker, not one per comparison.
    Benchmark("bozorth3: one comparison with a new matcher (impostor pairs)") { benchmark in
        newTurn.compareWithNewMatchers(benchmark, impostor)
    }
    // What loading one enrolled sample adds to the cache.
    Benchmark("bozorth3: one sample's pair table (\(genuine.storedMinutiae.count) samples in turn)") { benchmark in
        tableTurn.buildTable(benchmark, genuine)
    }
}
