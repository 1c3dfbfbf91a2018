import FPVocabulary
import Foundation
import Testing

/// The one rule both contexts apply before an evaluation (issue 41 §3: it was written twice,
/// in `AuthenticationContext` and in `LAContext`'s path through fpbridged).
@Suite struct EvaluationAdmissionTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    func decide(invalidated: Bool = false, evaluating: Bool = false, policy: AuthPolicy? = .biometrics,
                lastPolicy: AuthPolicy = .biometrics, secondsAgo: TimeInterval? = nil, window: TimeInterval = 10) -> EvaluationAdmission {
        EvaluationAdmission.decide(invalidated: invalidated, evaluating: evaluating, policy: policy,
                                   last: secondsAgo.map { (lastPolicy, now.addingTimeInterval(-$0)) }, reuseWindow: window, now: now)
    }

    @Test func invalidatedComesFirstThenOneAtATime() {
        #expect(decide(invalidated: true, evaluating: true, secondsAgo: 1) == .refused(AuthError(.invalidContext, "the context has been invalidated")))
        #expect(decide(evaluating: true, secondsAgo: 1) == .refused(AuthError(.readerBusy, "this context is already evaluating")))
    }

    @Test func aSuccessOfTheSamePolicyIsReusedUpToTheWindowsEndAndNotAfter() {
        #expect(decide(secondsAgo: 10) == .reuse)
        #expect(decide(secondsAgo: 10.001) == .start)
        #expect(decide(lastPolicy: .deviceOwner, secondsAgo: 1) == .start, "another policy's success is not reused")
        #expect(decide(policy: nil, secondsAgo: 1) == .start, "identification is never reused")
        #expect(decide(secondsAgo: 0, window: 0) == .reuse && decide(secondsAgo: 0.001, window: 0) == .start)
        #expect(decide() == .start)
    }

    @Test func theWindowIsKeptBetweenZeroAndApplesMaximum() {
        #expect(EvaluationAdmission.reuseWindow(-5) == 0)
        #expect(EvaluationAdmission.reuseWindow(42) == 42)
        #expect(EvaluationAdmission.reuseWindow(3_600) == 300 && EvaluationAdmission.maximumReuseDuration == 300)
    }
}
