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

/// How sure one decision is: what an operator reads to see a near miss.
public struct IdentificationConfidence: Sendable, Hashable {
    /// The best person's score on the deciding touch (nil: no print had a score).
    public var bestScore: Int?
    /// The best score of anybody else on that touch (nil: nobody else had a score).
    public var runnerUpScore: Int?
    /// The threshold at this gallery's size.
    public var threshold: Int
    /// The rule that decided.
    public var rule: IdentificationRule
    /// The touches the decision took.
    public var touches: Int
    /// Prints whose comparison exceeded the step limit on the deciding touch.
    public var uncomparable: Int

    /// The best score's lead over the runner-up, when both are known.
    public var margin: Int? {
        guard let bestScore, let runnerUpScore else { return nil }
        return bestScore - runnerUpScore
    }

    /// A confidence from its parts.
    public init(bestScore: Int?, runnerUpScore: Int?, threshold: Int, rule: IdentificationRule, touches: Int, uncomparable: Int) {
        self.bestScore = bestScore
        self.runnerUpScore = runnerUpScore
        self.threshold = threshold
        self.rule = rule
        self.touches = touches
        self.uncomparable = uncomparable
    }
}

/// What ``IdentificationRules`` decided for the touches so far.
public enum IdentificationDecision: Sendable, Hashable {
    /// The finger is this gallery print's person.
    case identified(galleryIndex: Int, person: String, IdentificationConfidence)
    /// Nobody is identified: a failed attempt.
    case noMatch(IdentificationConfidence)
    /// Too close to tell: ask for another touch and decide with both.
    case anotherTouch(IdentificationConfidence)

    /// How sure the decision is.
    public var confidence: IdentificationConfidence {
        switch self {
        case .identified(_, _, let confidence), .noMatch(let confidence), .anotherTouch(let confidence): confidence
        }
    }
}
