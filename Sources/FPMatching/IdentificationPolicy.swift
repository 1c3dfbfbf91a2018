/// What the project's 1:N decision aims for and how cautious it is (``IdentificationRules``).
///
/// The threshold rises with the gallery: a stranger's touch is compared with every sample of
/// every print, and each comparison is one more chance of a false score. It is set so that a
/// stranger is welcomed as somebody at most ``targetStrangerRate`` of the time at the gallery's
/// size, by the ``tail`` model with ``safetyFactor``, and never below the reader's 1:1
/// threshold.
public struct IdentificationPolicy: Sendable, Hashable {
    /// The false positive identification rate aimed for: the fraction of strangers (people
    /// never enrolled) welcomed as somebody, at whatever size the gallery has.
    public var targetStrangerRate: Double
    /// The impostor score model the threshold is computed from.
    public var tail: ImpostorTail
    /// How much rarer than the target the model must make a false score: the model is
    /// extrapolated far past the rates that were counted.
    public var safetyFactor: Double
    /// Points above the threshold within which a best score is confirmed by a second touch.
    public var confirmationBand: Int
    /// Touches one decision may take: the first, and one more when it was close.
    public var maximumTouches: Int
    /// Failed identifications in about an hour that the threshold for ``targetStrangerRate``
    /// is meant to face; beyond, the threshold rises so that all the touches together can win
    /// no more than this many could (``threshold(comparisons:readerThreshold:recentFailedTouches:)``).
    public var strangerTouchesPerHour: Double

    /// A policy; the defaults are the kiosk's.
    ///
    /// - Parameters:
    ///   - targetStrangerRate: one stranger in 1,000 by default: at a lobby of some hundred
    ///     touches a day by people not enrolled (visitors, couriers), about one false welcome in
    ///     ten days before the attempt limits, which is the order commercial terminals publish
    ///     for their default security level; clamped to 1e-9...0.1.
    ///   - tail: ``ImpostorTail/bozorth3``.
    ///   - safetyFactor: 3 (at least 1).
    ///   - confirmationBand: 10 points, about one decade of the impostor tail.
    ///   - maximumTouches: 2 (at least 1).
    ///   - strangerTouchesPerHour: 10 (at least 1): with the target, a guesser's whole hour wins
    ///     at most 10 × 1 in 1,000, one chance in 100, however many touches he makes; the
    ///     threshold then costs the next person about 8 points (one decade of the tail) for
    ///     each tenfold more failed touches (at 1,000 prints of 5 samples: 61 up to 10 such
    ///     touches an hour, 68 at 100, 76 at 1,000).
    public init(targetStrangerRate: Double = 0.001, tail: ImpostorTail = .bozorth3, safetyFactor: Double = 3,
                confirmationBand: Int = 10, maximumTouches: Int = 2, strangerTouchesPerHour: Double = 10) {
        self.targetStrangerRate = min(max(targetStrangerRate.isNaN ? 0.001 : targetStrangerRate, 1e-9), 0.1)
        self.tail = tail
        self.safetyFactor = max(safetyFactor.isNaN ? 1 : safetyFactor, 1)
        self.confirmationBand = max(confirmationBand, 0)
        self.maximumTouches = max(maximumTouches, 1)
        self.strangerTouchesPerHour = max(strangerTouchesPerHour.isNaN ? 10 : strangerTouchesPerHour, 1)
    }

    /// The lowest score that may identify somebody when a touch was compared with
    /// `comparisons` samples, never below `readerThreshold` (the driver's 1:1 threshold).
    ///
    /// A stranger's chance of some sample reaching score s is at most comparisons × rate(s)
    /// (the union bound; samples of one print are not independent, which only makes it
    /// smaller), so the threshold is the score where that reaches target ÷ safety factor.
    ///
    /// `recentFailedTouches`: the reader's failed identifications of about the last hour. Up to
    /// ``strangerTouchesPerHour`` they change nothing; beyond, the rate each touch may have is
    /// divided by how many times more there were, so a guesser's touches together stay within
    /// what ``strangerTouchesPerHour`` touches at the target could win. Infinite or NaN: no
    /// threshold (`Int.max`).
    public func threshold(comparisons: Int, readerThreshold: Int = 40, recentFailedTouches: Double = 0) -> Int {
        guard recentFailedTouches.isFinite else { return Int.max }
        let pressure = max(1, recentFailedTouches / strangerTouchesPerHour)
        let perComparison = targetStrangerRate / safetyFactor / Double(max(comparisons, 1)) / pressure
        let score = tail.score(atRate: perComparison)
        guard score.isFinite else { return Int.max }
        return max(readerThreshold, Int(score.rounded(.up)))
    }
}
