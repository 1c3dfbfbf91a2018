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
    /// The most minutiae a fuzzed sample keeps. bozorth3's work has no bound on crafted dense
    /// samples (docs/bozorth3.md §6.7; libfprint's too): a fuzzer would report that known
    /// slowness as a hang on every run, and crashes, overflows and memory are what it is for.
    static let minutiaeCap = 80

    /// Decodes `bytes` as a serialised print (after the same check as every stored print) and
    /// compares its first three samples with each other.
    public static func match(print bytes: [UInt8]) {
        guard let samples = (try? NBISTemplate(PrintData(bytes: bytes)))?.samples else { return }
        compare(samples.prefix(3).map { Array($0.prefix(minutiaeCap)) })
    }

    /// Reads `bytes` as (x, y, theta) int32 triples, any values at all, split into a probe and
    /// a stored sample, and compares them both ways.
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
        compare([Array(points.prefix(half)), Array(points.dropFirst(half))])
    }

    private static func compare(_ samples: [[NBISMinutia]]) {
        let tables = samples.map(Bozorth3PairTable.init(minutiae:))
        var matcher = Bozorth3Matcher()
        for probe in tables {
            for stored in tables { _ = matcher.score(probe: probe, stored: stored) }
        }
    }
}
