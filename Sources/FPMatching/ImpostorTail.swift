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

    /// Fitted on the accuracy benchmark's tuning seed (bench/tuning/impostor-tail.json, issue 50):
    /// synthetic fingers as a small sensor takes them (bench/gallery/small_sensor.py, seed 9),
    /// 2,498,000 impostor sample comparisons, ln P(score ≥ t) = 1.257 − 0.2963 t over t = 30...52:
    /// 2.5 in 100,000 reach 40, a tenth as many every 7.77 points. The benchmark's figures are
    /// measured on another seed, which no constant here saw.
    public static let bozorth3 = ImpostorTail(referenceScore: 40, rateAtReference: 2.50e-5, pointsPerDecade: 7.77)

    /// The modelled fraction of impostor sample comparisons scoring at least `score`.
    public func rate(atLeast score: Double) -> Double {
        rateAtReference * pow(10, -(score - referenceScore) / pointsPerDecade)
    }

    /// The score at which the modelled rate falls to `rate`.
    public func score(atRate rate: Double) -> Double {
        referenceScore + pointsPerDecade * log10(rateAtReference / rate)
    }
}
