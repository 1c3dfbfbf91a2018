/// How sure an identification among many people was, as the project's 1:N rule decided it
/// (issue 50): what a kiosk's operator and the login server's audit read to see a near miss.
public struct MatchConfidence: Sendable, Hashable, Codable {
    /// The best person's bozorth3 score on this touch (nil: no print had a score).
    public var bestScore: Int?
    /// The best score of anybody else (nil: nobody else had one).
    public var runnerUpScore: Int?
    /// The score needed at this gallery's size.
    public var threshold: Int
    /// The rule that decided: `clear-lead`, `confirmed`, `below-threshold`, `near-threshold`,
    /// `close-runner-up`, `uncomparable` or `not-confirmed`.
    public var rule: String
    /// Touches the decision has taken so far.
    public var touches: Int
    /// Prints that could not be compared within the matcher's step limit.
    public var uncomparable: Int

    /// The best score's lead over the runner-up, when both are known.
    public var margin: Int? {
        guard let bestScore, let runnerUpScore else { return nil }
        return bestScore - runnerUpScore
    }

    /// How sure, in one line for a person or a log: `Best score 51 (63 needed), next best 30:
    /// below-threshold` (the CLI's prompt and the kiosk's log say it alike).
    public var summary: String {
        let best = bestScore.map { "Best score \($0)" } ?? "No score"
        let next = runnerUpScore.map { ", next best \($0)" } ?? ""
        let unknown = uncomparable > 0 ? ", \(uncomparable) print\(uncomparable == 1 ? "" : "s") not comparable" : ""
        let touch = touches > 1 ? ", touch \(touches)" : ""
        return "\(best) (\(threshold) needed)\(next)\(unknown)\(touch): \(rule)"
    }

    /// A confidence from its parts.
    public init(bestScore: Int?, runnerUpScore: Int?, threshold: Int, rule: String, touches: Int, uncomparable: Int) {
        self.bestScore = bestScore
        self.runnerUpScore = runnerUpScore
        self.threshold = threshold
        self.rule = rule
        self.touches = touches
        self.uncomparable = uncomparable
    }
}
