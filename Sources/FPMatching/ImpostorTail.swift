#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How often a finger scores at least a given bozorth3 score against one sample of somebody
/// else's print: the impostor tail the 1:N threshold is set from.
///
/// Modelled as log-linear, a tenth as likely every ``pointsPerDecade`` points above
/// ``referenceScore``, which is the shape measured impostor scores have above libfprint's 1:1
/// threshold (bench/accuracy.py prints the fit and the counts it rests on). The model is used
/// beyond the rates anyone can count (one in a hundred million); ``IdentificationPolicy``
/// therefore asks for a safety factor on top.
public struct ImpostorTail: Sendable, Hashable {
    /// A score at which the rate was counted.
    public var referenceScore: Double
    /// The measured fraction of impostor sample comparisons scoring at least ``referenceScore``.
    public var rateAtReference: Double
    /// Points by which the score must rise for the rate to fall tenfold.
    public var pointsPerDecade: Double

    /// A tail from its three numbers.
    public init(referenceScore: Double, rateAtReference: Double, pointsPerDecade: Double) {
        self.referenceScore = referenceScore
        self.rateAtReference = rateAtReference
        self.pointsPerDecade = pointsPerDecade
    }

    /// Measured on synthetic fingers of bench/gallery/synth.py (issue 50's probe): 55 of
    /// 484,000 impostor comparisons scored 40 or more (1.1e-4), and the best impostor scores
    /// of 582 strangers against 1,000 prints ran to 56, about a tenth as likely per 9 points.
    public static let bozorth3 = ImpostorTail(referenceScore: 40, rateAtReference: 1.1e-4, pointsPerDecade: 9)

    /// The modelled fraction of impostor sample comparisons scoring at least `score`.
    public func rate(atLeast score: Double) -> Double {
        rateAtReference * pow(10, -(score - referenceScore) / pointsPerDecade)
    }

    /// The score at which the modelled rate falls to `rate`.
    public func score(atRate rate: Double) -> Double {
        referenceScore + pointsPerDecade * log10(rateAtReference / rate)
    }
}
