import FoundationEssentials

/// When an evaluation may start: the rules a context applies before any work, written once
/// for the engine's `AuthenticationContext` and for `LAContext` evaluating through fpbridged.
///
/// In order: an invalidated context refuses everything (`invalidContext`); a context already
/// evaluating refuses a second evaluation (`readerBusy`); a success of the same policy no
/// older than the reuse window is answered again without a scan (Apple's
/// `touchIDAuthenticationAllowableReuseDuration`); anything else starts.
public enum EvaluationAdmission: Sendable, Equatable {
    /// Refused, with the error the caller gets.
    case refused(AuthError)
    /// The last success is reused: no scan.
    case reuse
    /// The evaluation starts.
    case start

    /// The longest reuse window a context accepts, in seconds (Apple's
    /// `LATouchIDAuthenticationMaximumAllowableReuseDuration`); longer ones are capped to it.
    public static let maximumReuseDuration: TimeInterval = 300

    /// `seconds` as a context keeps it: not below zero, not above ``maximumReuseDuration``.
    public static func reuseWindow(_ seconds: TimeInterval) -> TimeInterval {
        min(max(0, seconds), maximumReuseDuration)
    }

    /// What a context does with an evaluation of `policy` asked for at `now`.
    /// - Parameters:
    ///   - invalidated: the context was invalidated.
    ///   - evaluating: an evaluation of this context is under way.
    ///   - policy: the policy asked for; nil for what is never reused (identification).
    ///   - last: the policy and time of the context's last success, if any.
    ///   - reuseWindow: the context's reuse window in seconds (0: a success is reused only within the same instant).
    ///   - now: when the evaluation is asked for.
    public static func decide<Policy: Equatable>(invalidated: Bool, evaluating: Bool, policy: Policy?,
                                                 last: (policy: Policy, date: Date)?, reuseWindow: TimeInterval,
                                                 now: Date) -> EvaluationAdmission {
        if invalidated { return .refused(AuthError(.invalidContext, "the context has been invalidated")) }
        if evaluating { return .refused(AuthError(.readerBusy, "this context is already evaluating")) }
        if let policy, let last, last.policy == policy, now.timeIntervalSince(last.date) <= reuseWindow { return .reuse }
        return .start
    }
}
