import FPCore

/// How the fake reader presents itself. Set with `set NAME VALUE` script lines.
public struct FakeReaderSettings: Sendable, Hashable {
    /// The reader's name (`set name`).
    public var name = "fpbridge fake reader"
    /// Press or swipe (`set scan-type`).
    public var scanType = ScanType.press
    /// Accepted scans an enrollment takes (`set stages`).
    public var enrollStages = 5
    /// What the reader can do (`set features`).
    public var features: ReaderFeatures = [.verify, .identify]
    /// Delay before each event takes effect, as a real finger would take.
    public var latencyMilliseconds = 0
    /// Time spent matching once a finger is on the sensor (a large gallery on a slow host):
    /// it never counts as waiting for the finger.
    public var matchingMilliseconds = 0
    /// The heat of libfprint's thermal model the reader reports (`set heat 0.72`; at 0.731 or
    /// more it is hot and scans nothing); nil, the default: it never overheats.
    public var heat: ReaderHeat?

    /// The defaults: a press reader with 5 stages that verifies and identifies.
    public init() {}

    mutating func apply(_ key: String, _ values: [String]) throws(FakeScriptError) {
        func number(_ text: String, min: Int, max: Int) throws(FakeScriptError) -> Int {
            guard let value = Int(text), (min...max).contains(value) else {
                throw FakeScriptError(message: "'\(key)' needs a whole number from \(min) to \(max), not '\(text)'")
            }
            return value
        }
        switch key {
        case "name":
            name = values.joined(separator: " ")
        case "scan-type":
            guard values.count == 1, let type = ScanType(rawValue: values[0]) else {
                throw FakeScriptError(message: "'scan-type' is press or swipe")
            }
            scanType = type
        case "stages":
            guard values.count == 1 else { throw FakeScriptError(message: "'stages' takes one number") }
            enrollStages = try number(values[0], min: 1, max: 50)
        case "latency":
            guard values.count == 1 else { throw FakeScriptError(message: "'latency' takes one number") }
            latencyMilliseconds = try number(values[0], min: 0, max: 60_000)
        case "matching":
            guard values.count == 1 else { throw FakeScriptError(message: "'matching' takes one number") }
            matchingMilliseconds = try number(values[0], min: 0, max: 600_000)
        case "heat":
            guard values.count == 1, let ratio = Double(values[0]), (0...1).contains(ratio) else {
                throw FakeScriptError(message: "'heat' needs a number from 0 to 1 (0.731 and above is hot)")
            }
            heat = ReaderHeat(ratio: ratio)
        case "features":
            var set: ReaderFeatures = []
            for name in values.joined(separator: ",").split(separator: ",").map(String.init) {
                guard let feature = ReaderFeatures(name: name) else {
                    throw FakeScriptError(message: "unknown feature '\(name)'; use any of: "
                        + ReaderFeatures.named.map(\.name).joined(separator: ", "))
                }
                set.insert(feature)
            }
            features = set
        default:
            throw FakeScriptError(message: "unknown setting '\(key)'; use name, scan-type, stages, latency, matching, heat or features")
        }
    }
}
