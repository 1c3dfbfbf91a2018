/// One print's place in an identification as the rules see it: whose it is, where it stands
/// in the gallery, and what the touch scored against it (nil: every scored sample met the
/// step cap).
struct Candidate: Sendable {
    let person: String
    let galleryIndex: Int
    let score: Int?
}

/// What a 1:N rule decided after the touches it was given.
enum Decision: Sendable, Equatable {
    case identified(galleryIndex: Int)
    case noMatch
    case anotherTouch
}

/// The project's new 1:N decision, the one function the benchmark swaps: everything else
/// (scores, touches, counting) is the same for whichever rule stands here.
///
/// Until `IdentificationRules` lands in FPMatching this is a **stand-in**, not the
/// project's rule: the best candidate at bozorth3's 1:1 threshold, never another touch. It
/// exists only so that the benchmark's plumbing runs; its figures are not the new rule's.
enum NewRule {
    /// How the benchmark's output names the rule that decided.
    static let name = "stand-in (best candidate >= 40)"

    /// Decides from the touches so far (each a list of every print's candidate).
    static func decide(_ touches: [[Candidate]], galleryCount: Int, targetStrangerRate: Double) -> Decision {
        guard let last = touches.last else { return .noMatch }
        var best: Candidate?
        for candidate in last {
            guard let score = candidate.score, score >= 40 else { continue }
            if best.map({ score > $0.score! }) ?? true { best = candidate }
        }
        return best.map { .identified(galleryIndex: $0.galleryIndex) } ?? .noMatch
    }
}
