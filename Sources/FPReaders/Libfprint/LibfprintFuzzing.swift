internal import CLibfprint
import Dispatch
import FPCore
import FPMatching

/// The libfprint print path for the fuzzer: the check, then, for bytes that pass
/// it, `fp_print_deserialize` itself on the loop thread, as verify and identify do.
@_spi(Fuzzing)
public enum LibfprintFuzzing {
    /// Checks `bytes` and, when they pass, deserialises them with libfprint on the loop thread.
    public static func decode(_ bytes: [UInt8]) {
        let done = DispatchSemaphore(value: 0)
        Task { @GLibLoop in
            if let print = try? LibfprintPrint.decode(PrintData(bytes: bytes)) {
                g_object_unref(UnsafeMutableRawPointer(print))
            }
            done.signal()
        }
        done.wait()
    }
}

/// The host matcher's input for the fuzzer: a stored print's bytes decoded into samples, the
/// tables built, and its samples compared with each other as probe and stored sample.
@_spi(Fuzzing)
public enum MatcherFuzzing {
    /// The most minutiae a fuzzed sample keeps, each at most once. bozorth3's work has no bound
    /// on samples of repeated or piled-up minutiae, nor on coordinates so far apart that
    /// squared lengths wrap (docs/bozorth3.md §6.7): libfprint's own takes 42 s for four
    /// pairs of 20 repeated points, and a fuzzing build (unoptimised, instrumented) is slower
    /// still, so every run would report that known slowness as a hang. Crashes, overflows and
    /// memory are what the fuzzer is for; no detector output repeats a minutia or leaves the
    /// image.
    static let minutiaeCap = 24

    /// The sample's first ``minutiaeCap`` distinct minutiae, in order, each brought into
    /// bounds first: coordinates modulo 1,024 and angles into -512...511. Well past what
    /// libfprint stores (angles outside -179...180 included), but not millions of pixels.
    /// The stored-print target needs this as much as the raw one: a damaged or crafted
    /// print holds any int32, and CI's fuzzing of it, unbounded, once met a print that took
    /// over 10 s (its input was not kept; the bounded raw target never has).
    static func fuzzable(_ sample: [NBISMinutia]) -> [NBISMinutia] {
        var seen = Set<NBISMinutia>()
        let bounded = sample.map { NBISMinutia(x: $0.x & 1023, y: $0.y & 1023, theta: ($0.theta & 1023) - 512) }
        return Array(bounded.filter { seen.insert($0).inserted }.prefix(minutiaeCap))
    }

    /// Decodes `bytes` as a serialised print (after the same check as every stored print) and
    /// compares its first two samples with each other.
    public static func match(print bytes: [UInt8]) {
        guard let samples = (try? NBISTemplate(PrintData(bytes: bytes)))?.samples else { return }
        compare(samples.prefix(2).map(fuzzable))
    }

    /// Reads `bytes` as (x, y, theta) int32 triples, split into a probe and a stored sample,
    /// and compares them both ways (bounded as ``fuzzable(_:)`` says).
    public static func match(minutiae bytes: [UInt8]) {
        var values: [Int32] = []
        for offset in stride(from: 0, to: bytes.count - bytes.count % 4, by: 4) {
            var word: UInt32 = 0
            for byte in 0..<4 { word |= UInt32(bytes[offset + byte]) << UInt32(8 * byte) }
            values.append(Int32(bitPattern: word))
        }
        var points: [NBISMinutia] = []
        for index in stride(from: 0, to: min(values.count - values.count % 3, 6 * minutiaeCap), by: 3) {
            points.append(NBISMinutia(x: values[index], y: values[index + 1], theta: values[index + 2]))
        }
        let half = points.count / 2
        compare([fuzzable(Array(points.prefix(half))), fuzzable(Array(points.dropFirst(half)))])
    }

    private static func compare(_ samples: [[NBISMinutia]]) {
        let tables = samples.map(Bozorth3PairTable.init(minutiae:))
        var matcher = Bozorth3Matcher()
        for probe in tables {
            for stored in tables { _ = try? matcher.score(probe: probe, stored: stored) }
        }
    }
}
