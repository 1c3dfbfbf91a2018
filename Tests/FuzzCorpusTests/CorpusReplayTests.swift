import FPFuzzing
import Foundation
import Testing
import TestSupport

/// Every committed fuzz input (the corpus that libFuzzer grew, and any input that once
/// crashed) goes through its target on each test run: a crash found once stays fixed.
@Suite struct CorpusReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz").path

    static func inputs(_ target: FuzzTarget) -> [String] {
        ["Corpus", "Regressions"].flatMap { kind -> [String] in
            let folder = "\(root)/\(kind)/\(target.rawValue)"
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyCommittedInputRunsWithoutACrash(target: FuzzTarget) throws {
        InProcessLibfprint.prepare()
        let inputs = Self.inputs(target)
        #expect(!inputs.isEmpty, "no corpus for \(target.rawValue) under \(Self.root)")
        for path in inputs {
            target.run(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }
}
