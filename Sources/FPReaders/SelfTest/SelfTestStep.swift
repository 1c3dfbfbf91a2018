/// One step of a reader self-test, in the order the steps always run.
public enum SelfTestStep: String, Sendable, CaseIterable, Comparable {
    /// Wipes the sensor's storage (match-on-chip readers; destructive).
    case clear
    /// Enrolls a throwaway print, created bare.
    case enroll
    /// Lists the sensor's prints and looks for the new one.
    case list
    /// Verifies a touch against the new print.
    case verify
    /// Identifies a touch against a gallery holding the new print.
    case identify
    /// Deletes the new print from the sensor.
    case delete

    /// Whether a reader with `features` can run this step.
    public func isSupported(by features: ReaderFeatures) -> Bool {
        switch self {
        case .clear: features.contains(.storageClear)
        case .enroll: true
        case .list: features.contains(.storageList)
        case .verify: features.contains(.verify)
        case .identify: features.contains(.identify)
        case .delete: features.contains(.storageDelete)
        }
    }

    /// Steps that need the print the `enroll` step made.
    var needsEnrolledPrint: Bool { self != .clear && self != .enroll }

    /// Parses a comma-separated list such as `clear,enroll,verify`, returned in run order.
    public static func parseList(_ text: String) throws(ReaderError) -> [SelfTestStep] {
        var steps = Set<SelfTestStep>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmed
            guard let step = SelfTestStep(rawValue: trimmed) else {
                throw .invalidSelection("unknown self-test step '\(trimmed)'; steps are "
                                        + allCases.map(\.rawValue).joined(separator: ","))
            }
            steps.insert(step)
        }
        return steps.sorted()
    }

    /// Orders steps as a self-test runs them.
    public static func < (lhs: SelfTestStep, rhs: SelfTestStep) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
