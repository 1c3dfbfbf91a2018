/// Progress of a running self-test, for a front end to show.
public enum SelfTestEvent: Sendable, Hashable {
    /// A step is starting; `needsFinger` when the user must touch the reader now.
    case started(SelfTestStep, needsFinger: Bool)
    /// An enroll scan was accepted or rejected during the `enroll` step.
    case enrollProgress(EnrollEvent)
    /// A step ended.
    case finished(SelfTestResult)
}
