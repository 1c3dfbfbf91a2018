import FPCore

/// The project's 1:N decision: who a touch belongs to among many people, or nobody (issue 50).
///
/// libfprint answers an identification with the **first** print in gallery order that reaches
/// its 1:1 threshold. That suits one person's ten fingers and fails a lobby: at 1,000 prints
/// about one stranger in 13 was welcomed as somebody, and one employee in 30 as a colleague
/// further up the list. Here:
/// - every print is scored and the **best person** is the candidate (a person's prints are one
///   candidate, so her own fingers never compete with each other);
/// - the threshold rises with the comparisons made (``IdentificationPolicy/threshold(comparisons:readerThreshold:recentFailedTouches:)``);
/// - a best score within ``IdentificationPolicy/confirmationBand`` of the threshold, anybody
///   else at or above the threshold, or a print that could not be compared and might be the
///   best, asks for **another touch** instead of a yes;
/// - a second touch identifies when it alone is clear, or when it puts the same person first
///   at or above the threshold again with nobody else there; otherwise nobody is identified.
///
/// When in doubt the answer is no: a wrong "yes" welcomes the wrong person, a wrong "no" costs
/// a touch or the badge.
public enum IdentificationRules {
    /// Decides the touches of one identification so far, oldest first; each holds the score of
    /// every print of the gallery for that touch.
    ///
    /// - Parameters:
    ///   - touches: each touch's candidates, oldest first: every print of the gallery with its score.
    ///   - comparisons: sample comparisons one touch made (``Bozorth3Search/Scores/comparisons``).
    ///   - readerThreshold: the reader's 1:1 threshold, the lowest the threshold may be.
    ///   - policy: the target and the caution (``IdentificationPolicy``).
    ///   - recentFailedTouches: the reader's failed identifications of about the last hour, which
    ///     raise the threshold past the policy's ``IdentificationPolicy/strangerTouchesPerHour``.
    /// - Returns: who it is, nobody, or a request for another touch; with how sure it is.
    public static func decide(_ touches: [[ScoredCandidate]], comparisons: Int, readerThreshold: Int = Bozorth3.defaultThreshold,
                              policy: IdentificationPolicy = IdentificationPolicy(), recentFailedTouches: Double = 0) -> IdentificationDecision {
        let threshold = policy.threshold(comparisons: comparisons, readerThreshold: readerThreshold, recentFailedTouches: recentFailedTouches)
        guard let last = touches.last else {
            return .noMatch(MatchConfidence(bestScore: nil, runnerUpScore: nil, threshold: threshold,
                                                     rule: .belowThreshold, touches: 0, uncomparable: 0))
        }
        let summary = TouchSummary(last)
        var rule = summary.rule(threshold: threshold, band: policy.confirmationBand)
        func confidence(_ rule: IdentificationRule) -> MatchConfidence {
            MatchConfidence(bestScore: summary.best?.score, runnerUpScore: summary.runnerUp, threshold: threshold,
                                     rule: rule, touches: touches.count, uncomparable: summary.uncomparable)
        }
        if rule == .clearLead, let best = summary.best {
            return .identified(galleryIndex: best.galleryIndex, person: best.person, confidence(.clearLead))
        }
        if touches.count >= 2 {
            let previous = TouchSummary(touches[touches.count - 2])
            // The same person first at or above the threshold on both touches, and nobody else
            // there on this one: a stranger would need two false scores for one print.
            if rule == .nearThreshold, let best = summary.best, let earlier = previous.best,
               earlier.person == best.person, earlier.score >= threshold {
                return .identified(galleryIndex: best.galleryIndex, person: best.person, confidence(.confirmed))
            }
            if rule == .nearThreshold { rule = .notConfirmed }
        }
        if rule != .belowThreshold && touches.count < policy.maximumTouches {
            return .anotherTouch(confidence(rule))
        }
        return .noMatch(confidence(rule))
    }
}

/// One touch's scores read per person.
private struct TouchSummary {
    struct Best {
        let person: String
        let galleryIndex: Int
        let score: Int
    }

    /// The person with the highest score, at her best print (the first in gallery order when
    /// two of hers score the same).
    let best: Best?
    /// The highest score of anybody other than ``best``'s person.
    let runnerUp: Int?
    /// Prints without a score.
    let uncomparable: Int
    /// Prints without a score that belong to somebody other than the best person: any of
    /// them could have been the best.
    let uncomparableOthers: Int

    init(_ candidates: [ScoredCandidate]) {
        var perPerson: [String: Best] = [:]
        for candidate in candidates {
            guard let score = candidate.score else { continue }
            if let known = perPerson[candidate.person],
               known.score > score || (known.score == score && known.galleryIndex < candidate.galleryIndex) { continue }
            perPerson[candidate.person] = Best(person: candidate.person, galleryIndex: candidate.galleryIndex, score: score)
        }
        let ranked = perPerson.values.sorted { ($0.score, -$0.galleryIndex) > ($1.score, -$1.galleryIndex) }
        best = ranked.first
        runnerUp = ranked.dropFirst().first?.score
        let unscored = candidates.filter { $0.score == nil }
        uncomparable = unscored.count
        let bestPerson = ranked.first?.person
        uncomparableOthers = unscored.filter { $0.person != bestPerson }.count
    }

    /// What this touch alone says.
    func rule(threshold: Int, band: Int) -> IdentificationRule {
        guard let best, best.score >= threshold else {
            // Nobody reached it, but a print without a score might have: worth another touch,
            // never a yes.
            return uncomparableOthers > 0 ? .uncomparable : .belowThreshold
        }
        if let runnerUp, runnerUp >= threshold { return .closeRunnerUp }
        if uncomparableOthers > 0 { return .uncomparable }
        if best.score < threshold + band { return .nearThreshold }
        return .clearLead
    }
}
