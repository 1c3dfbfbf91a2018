import ArgumentParser
import FPMatching
import FoundationEssentials

/// The accuracy benchmark's score matrix and decisions (bench/accuracy.py drives it): every
/// bozorth3 score of a set of probe prints against a gallery of serialized prints, on
/// several threads and cached on disk, and the new 1:N rule's decisions over trials.
@main
struct AccuracyTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fpbridge-accuracy",
        abstract: "Score matrices and 1:N decisions for the accuracy benchmark (bench/accuracy.py).",
        subcommands: [Scores.self, Decide.self, Describe.self])
}

/// What both subcommands read: the gallery, the cache, the threads.
struct CommonOptions: ParsableArguments {
    @Option(help: "The gallery: one 'PERSON PRINT-PATH' a line, in gallery order.")
    var gallery: String
    @Option(help: "Distinct samples a print scored (at most 5; fewer for the largest galleries).")
    var samples = SampleScores.slots
    @Option(help: "Threads.")
    var jobs = 2
    @Option(help: "The score cache's directory (bench/accuracy.py passes one under ~/.cache/fpbridge-bench).")
    var cache: String

    func validate() throws {
        guard (1...SampleScores.slots).contains(samples) else { throw ValidationError("--samples is 1 to \(SampleScores.slots)") }
        guard jobs > 0 else { throw ValidationError("--jobs must be positive") }
    }

    /// The gallery's persons and prints, and the cache (in a folder named for the matcher's step cap).
    func load() throws -> (persons: [String], prints: [PrintFile], cache: ScoreCache) {
        let lines = try Lines.read(gallery)
        let fields = try lines.map { line in
            let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard parts.count == 2 else { throw ToolError("\(gallery): expected 'PERSON PATH', got '\(line)'") }
            return parts
        }
        let prints = try PrintFile.readAll(fields.map { $0[1] }, jobs: jobs)
        let store = try ScoreCache(directory: cache + "/bozorth3-steps-\(Bozorth3.stepLimit)")
        return (fields.map { $0[0] }, prints, store)
    }

    /// A JSON object of what a run computed, for the benchmark's log.
    func summary(_ prints: [PrintFile], probes: Int, _ rows: ScoreRows) -> String {
        let histogram = Dictionary(grouping: prints, by: { $0.samples.count }).mapValues(\.count)
        let counts = histogram.keys.sorted().map { #""\#($0)":\#(histogram[$0]!)"# }.joined(separator: ",")
        return #"{"prints":\#(prints.count),"probes":\#(probes),"samples":\#(samples),"computed":\#(rows.computed),"capped":\#(rows.capped),"distinctSamples":{\#(counts)}}"#
    }
}

extension AccuracyTool {
    /// Every score of some probes against the gallery, written as a matrix.
    struct Scores: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write probes x prints x 5 slots of little-endian Int16 (-1 step cap, -2 no sample, -3 not scored).")

        @OptionGroup var common: CommonOptions
        @Option(help: "The probes: one print path a line (its first sample is the touch).")
        var probes: String
        @Option(help: "The matrix file to write.")
        var out: String

        func run() throws {
            let (_, prints, cache) = try common.load()
            let probeFiles = try PrintFile.readAll(try Lines.read(probes), jobs: common.jobs)
            let rows = try ScoreRows.compute(probes: probeFiles, gallery: prints, samples: common.samples,
                                             jobs: common.jobs, cache: cache, label: "scores")
            try Matrix.write(rows.rows, to: out)
            print(common.summary(prints, probes: probeFiles.count, rows))
        }
    }

    /// The new rule's decisions over trials, and the first touches' matrix for the old rule.
    struct Decide: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play trials through the new 1:N rule; write its decisions (JSON lines) and the first touches' matrix.")

        @OptionGroup var common: CommonOptions
        @Option(help: "The trials: 'ID [claim=PERSON] TOUCH-1-PRINT [TOUCH-2-PRINT ...]' a line (claim: compared with that person's prints alone, as a badge names them).")
        var trials: String
        @Option(help: "Target stranger rates, comma-separated: one decision per trial and target.")
        var targets = "0.001"
        @Option(help: "The impostor tail for the threshold: 'REFERENCE-SCORE,RATE,POINTS-PER-DECADE' (default: FPMatching's).")
        var tail: String?
        @Option(help: "Where to write the first touches' matrix (as 'scores' writes it).")
        var matrix: String
        @Option(help: "Where to write the decisions, one JSON object a line.")
        var out: String

        func run() throws {
            let (persons, prints, cache) = try common.load()
            let played = try Lines.read(trials).map { line in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                let claim = parts.count > 1 && parts[1].hasPrefix("claim=") ? String(parts[1].dropFirst(6)) : nil
                let touches = Array(parts.dropFirst(claim == nil ? 1 : 2))
                guard !parts.isEmpty, !touches.isEmpty, claim?.isEmpty != true else {
                    throw ToolError("\(trials): expected 'ID [claim=PERSON] TOUCH...', got '\(line)'")
                }
                return Trial(id: parts[0], touches: touches, claim: claim)
            }
            let rates = try targets.split(separator: ",").map { text in
                guard let rate = Double(text), rate > 0, rate < 1 else { throw ToolError("--targets: '\(text)' is no rate") }
                return rate
            }
            let firstProbes = try PrintFile.readAll(played.map { $0.touches[0] }, jobs: common.jobs)
            let first = try ScoreRows.compute(probes: firstProbes, gallery: prints, samples: common.samples,
                                              jobs: common.jobs, cache: cache, label: "touch 1")
            try Matrix.write(first.rows, to: matrix)
            let runner = TrialRunner(gallery: prints, persons: persons, samples: common.samples, jobs: common.jobs, cache: cache,
                                     tail: try impostorTail())
            let (outcomes, later) = try runner.run(played, first: first, targets: rates)
            try Data((outcomes.map(\.json).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: out))
            let threshold = IdentificationPolicy(targetStrangerRate: 0.001, tail: try impostorTail()).threshold(comparisons: runner.comparisons)
            print(common.summary(prints, probes: firstProbes.count, first).dropLast()
                  + #","laterTouches":\#(later.probes),"laterTouchesCapped":\#(later.capped)"#
                  + #","rule":"\#(NewRule.name)","comparisons":\#(runner.comparisons),"thresholdAtDefaultTarget":\#(threshold)}"#)
        }
    }
}

extension AccuracyTool {
    /// What libfprint found in some prints: their distinct samples and each one's minutiae.
    struct Describe: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One JSON line per print: its distinct samples' minutiae counts.")

        @Option(help: "The prints: one path a line.")
        var prints: String

        func run() throws {
            for file in try PrintFile.readAll(try Lines.read(prints), jobs: 1) {
                let counts = file.samples.map { String($0.minutiae.count) }.joined(separator: ",")
                print(#"{"path":"\#(file.path)","minutiae":[\#(counts)]}"#)
            }
        }
    }
}

extension AccuracyTool.Decide {
    /// The tail --tail names, or FPMatching's default.
    func impostorTail() throws -> ImpostorTail {
        guard let tail else { return .bozorth3 }
        let numbers = tail.split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 3, numbers[1] > 0, numbers[2] > 0 else {
            throw ToolError("--tail: expected 'REFERENCE-SCORE,RATE,POINTS-PER-DECADE', got '\(tail)'")
        }
        return ImpostorTail(referenceScore: numbers[0], rateAtReference: numbers[1], pointsPerDecade: numbers[2])
    }
}

/// Text files of one item a line (blank lines skipped).
enum Lines {
    static func read(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
}

/// The matrix file: rows one after another, little-endian Int16 values, no header.
enum Matrix {
    static func write(_ rows: [[Int16]], to path: String) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.reduce(0) { $0 + $1.count } * 2)
        for row in rows {
            for value in row {
                let bits = UInt16(bitPattern: value)
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
