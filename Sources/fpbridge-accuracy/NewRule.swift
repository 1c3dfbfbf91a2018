import FPMatching

/// What a 1:N rule decided after the touches it was given, as the benchmark counts it.
enum Decision: Sendable, Equatable {
    case identified(galleryIndex: Int)
    case noMatch
    case anotherTouch
}

/// The project's new 1:N decision, the one place the benchmark calls it: everything else
/// (scores, touches, counting) is the same for whichever rule stands here.
enum NewRule {
    /// How the benchmark's output names the rule.
    static let name = "IdentificationRules (best person, threshold by gallery size, second touch when close)"

    /// Decides from the touches so far (each a list of every print's candidate), with the
    /// policy's default caution at `targetStrangerRate` and the impostor tail given.
    static func decide(_ touches: [[ScoredCandidate]], comparisons: Int, targetStrangerRate: Double,
                       tail: ImpostorTail) -> (Decision, IdentificationRule) {
        let policy = IdentificationPolicy(targetStrangerRate: targetStrangerRate, tail: tail)
        let decision = IdentificationRules.decide(touches, comparisons: comparisons, policy: policy)
        // The rules name only rules of theirs, so the typed rule is always there.
        let rule = decision.confidence.decidingRule ?? .notConfirmed
        return switch decision {
        case .identified(let galleryIndex, _, _): (.identified(galleryIndex: galleryIndex), rule)
        case .noMatch: (.noMatch, rule)
        case .anotherTouch: (.anotherTouch, rule)
        }
    }
}
