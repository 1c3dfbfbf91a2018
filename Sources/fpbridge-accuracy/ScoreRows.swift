import FPCore
import FPMatching
import FoundationEssentials
import Synchronization

/// Every score of some probes against a gallery: one row per probe of ``SampleScores/slots``
/// values per print, computed on several threads, read from and added to the cache.
struct ScoreRows: Sendable {
    /// rows[p][i * slots + s]: probe p against sample s of print i.
    let rows: [[Int16]]
    /// Comparisons this run computed, and how many of those met the step cap.
    let computed: Int
    let capped: Int

    /// Scores `probes` (each compared by its first sample: a probe print is one image enrolled
    /// as one sample) against the first `samples` distinct samples of every print of `gallery`.
    static func compute(probes: [PrintFile], gallery: [PrintFile], samples: Int, jobs: Int,
                        cache: ScoreCache, label: String) throws -> ScoreRows {
        let computed = Atomic<Int>(0), capped = Atomic<Int>(0), finished = Atomic<Int>(0)
        let started = ContinuousClock.now
        let lastReport = Mutex(started)
        let rows = try Workers.map(probes.count, jobs: jobs) { index in
            let probe = probes[index]
            var matcher = Bozorth3Matcher()
            let kept = cache.load(probe: probe.digest)
            var fresh: [(digest: UInt64, slots: [Int16])] = []
            var row = [Int16](repeating: SampleScores.noSample, count: gallery.count * SampleScores.slots)
            for (position, print) in gallery.enumerated() {
                var slots = kept[print.digest] ?? Array(repeating: SampleScores.notComputed, count: SampleScores.slots)
                var changed = false
                for slot in 0..<SampleScores.slots {
                    if slot >= print.samples.count {
                        if slots[slot] != SampleScores.noSample { slots[slot] = SampleScores.noSample; changed = true }
                    } else if slot < samples, slots[slot] == SampleScores.notComputed {
                        do {
                            slots[slot] = SampleScores.slot(try matcher.score(probe: probe.samples[0], stored: print.samples[slot]))
                        } catch {
                            slots[slot] = SampleScores.workLimit
                            capped.add(1, ordering: .relaxed)
                        }
                        computed.add(1, ordering: .relaxed)
                        changed = true
                    }
                }
                if changed { fresh.append((print.digest, slots)) }
                let base = position * SampleScores.slots
                for slot in 0..<SampleScores.slots {
                    // Slots past --samples count as not there for this run, even if a larger run cached them.
                    row[base + slot] = slot < samples ? slots[slot] : min(slots[slot], SampleScores.noSample)
                }
            }
            try cache.append(probe: probe.digest, fresh)
            let done = finished.add(1, ordering: .relaxed).newValue
            report(label, done, probes.count, computed.load(ordering: .relaxed), started, lastReport)
            return row
        }
        return ScoreRows(rows: rows, computed: computed.load(ordering: .relaxed), capped: capped.load(ordering: .relaxed))
    }

    /// A progress line on standard error at most every 10 s, and at the end.
    private static func report(_ label: String, _ done: Int, _ total: Int, _ computed: Int,
                               _ started: ContinuousClock.Instant, _ last: borrowing Mutex<ContinuousClock.Instant>) {
        let now = ContinuousClock.now
        let due = last.withLock { last in
            guard done == total || now - last >= .seconds(10) else { return false }
            last = now
            return true
        }
        guard due else { return }
        let seconds = Double((now - started).components.seconds) + Double((now - started).components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int(Double(computed) / seconds) : 0
        StandardError.write("fpbridge-accuracy: \(label): \(done)/\(total) probes, \(computed) comparisons computed (\(rate)/s)\n")
    }
}
