import FPCore

/// One print's score for one touch, with whose print it is.
public struct ScoredCandidate: Sendable, Hashable {
    /// Who the print belongs to: the rule compares people, not prints (a person's ten fingers
    /// are one candidate).
    public var person: String
    /// The print's index in the gallery.
    public var galleryIndex: Int
    /// The print's score; nil when its comparison exceeded the step limit (unknown, not low).
    public var score: Int?

    /// A candidate from its parts.
    public init(person: String, galleryIndex: Int, score: Int?) {
        self.person = person
        self.galleryIndex = galleryIndex
        self.score = score
    }
}

/// Which rule of ``IdentificationRules`` decided.
public enum IdentificationRule: String, Sendable, Hashable, CaseIterable {
    /// The best person reached the threshold with room to spare and nobody else came near.
    case clearLead = "clear-lead"
    /// Two touches each put the same person first at or above the threshold.
    case confirmed
    /// Nobody reached the threshold.
    case belowThreshold = "below-threshold"
    /// The best person reached the threshold by less than the confirmation band.
    case nearThreshold = "near-threshold"
    /// Somebody else reached the threshold too.
    case closeRunnerUp = "close-runner-up"
    /// A print could not be compared within the step limit, and it could be the best.
    case uncomparable
    /// The second touch did not confirm the first.
    case notConfirmed = "not-confirmed"
}

extension MatchConfidence {
    /// A confidence with the rule that decided (``IdentificationRule``).
    public init(bestScore: Int?, runnerUpScore: Int?, threshold: Int, rule: IdentificationRule, touches: Int, uncomparable: Int) {
        self.init(bestScore: bestScore, runnerUpScore: runnerUpScore, threshold: threshold, rule: rule.rawValue,
                  touches: touches, uncomparable: uncomparable)
    }

    /// The rule that decided, when it is one this version knows.
    public var decidingRule: IdentificationRule? { IdentificationRule(rawValue: rule) }
}

/// What ``IdentificationRules`` decided for the touches so far.
public enum IdentificationDecision: Sendable, Hashable {
    /// The finger is this gallery print's person.
    case identified(galleryIndex: Int, person: String, MatchConfidence)
    /// Nobody is identified: a failed attempt.
    case noMatch(MatchConfidence)
    /// Too close to tell: ask for another touch and decide with both.
    case anotherTouch(MatchConfidence)

    /// How sure the decision is.
    public var confidence: MatchConfidence {
        switch self {
        case .identified(_, _, let confidence), .noMatch(let confidence), .anotherTouch(let confidence): confidence
        }
    }
}
