import Foundation
import FPMatching

/// A score-for-score fixture: minutiae sets and (probe, stored, libfprint's score) pairs,
/// written by bench/bz3-fixture.py with libfprint's own bozorth3 (Fixtures/README.md).
struct PairFixture {
    struct Pair {
        let probe: String
        let stored: String
        let score: Int
    }

    var sets: [String: [NBISMinutia]] = [:]
    var pairs: [Pair] = []

    /// The fixture in this target's Fixtures folder.
    static func bundled(_ name: String) throws -> PairFixture {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        return try PairFixture(path: folder.appendingPathComponent(name).path)
    }

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "set":
                let count = Int(fields[2])!
                let values = fields[3...].map { Int32($0)! }
                precondition(values.count == 3 * count, "set \(fields[1]) has \(values.count) values")
                sets[String(fields[1])] = (0..<count).map {
                    NBISMinutia(x: values[3 * $0], y: values[3 * $0 + 1], theta: values[3 * $0 + 2])
                }
            case "pair":
                pairs.append(Pair(probe: String(fields[1]), stored: String(fields[2]), score: Int(fields[3])!))
            default:
                continue
            }
        }
    }

    /// A set by its name in a pair: `NAME`, or `NAME:M` for its first M minutiae.
    func minutiae(_ reference: String) -> [NBISMinutia] {
        let parts = reference.split(separator: ":")
        let whole = sets[String(parts[0])]!
        guard parts.count == 2, let keep = Int(parts[1]) else { return whole }
        return Array(whole.prefix(keep))
    }
}
