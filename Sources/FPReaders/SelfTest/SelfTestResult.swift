/// What one self-test step did.
public struct SelfTestResult: Sendable, Hashable {
    /// How the step ended.
    public enum Outcome: Sendable, Hashable {
        /// The step worked; the detail says what was seen.
        case passed(String)
        /// The step ran and did not work.
        case failed(String)
        /// The step did not run (unsupported, or an earlier step it needs failed).
        case skipped(String)
    }

    /// The step.
    public let step: SelfTestStep
    /// How it ended.
    public let outcome: Outcome
    /// Wall time the step took (zero when skipped).
    public let duration: Duration

    /// A result.
    public init(step: SelfTestStep, outcome: Outcome, duration: Duration) {
        self.step = step
        self.outcome = outcome
        self.duration = duration
    }

    /// True when the step ran and did not work.
    public var failed: Bool {
        if case .failed = outcome { return true }
        return false
    }
}
