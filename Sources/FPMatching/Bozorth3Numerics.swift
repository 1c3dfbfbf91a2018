#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The arithmetic bozorth3 does, to the bit (docs/bozorth3.md §9).
///
/// libfprint's compiled bozorth3 mixes 32-bit integers, single-precision floats and a few
/// double-precision steps, and its scores depend on every one of those roundings. Each
/// helper here does exactly one of them; `Int32` wrapping operators stand where the C
/// uses `int`, so that a crafted stored print gives the same bits instead of a trap.
enum Bozorth3Numerics {
    /// `180 / π` as the single-precision constant the library multiplies by.
    static let degreesPerRadian = Float(bitPattern: 0x4265_2EE0)
    /// The relative length tolerance, `0.1f`.
    static let tenth = Float(bitPattern: 0x3DCC_CCCD)

    /// One ±360 step into `(-180, 180]`: bozorth3 never normalises further.
    @inline(__always)
    static func normalized(_ angle: Int32) -> Int32 {
        if angle > 180 { return angle &- 360 }
        if angle <= -180 { return angle &+ 360 }
        return angle
    }

    /// Whether two angles differing by `difference` are incompatible: `11 < |e| < 349`,
    /// tested on the square in single precision as the library does.
    @inline(__always)
    static func tooFar(_ difference: Int32) -> Bool {
        // The same answer for every Int32 on integers: below 4,096 the square is exact in
        // single precision, and from 349 on the rounded square is at least 349² = 121,801
        // (rounding never decreases), so the float test fails exactly where this one does.
        let magnitude = difference.magnitude
        return magnitude > 11 && magnitude < 349
    }

    /// The direction of an edge as a line, in `[-90, 90]`: `atanf` of the slope, no
    /// quadrant, rounded half away from zero in double precision.
    @inline(__always)
    static func edgeDirection(dx: Int32, dy: Int32) -> Int32 {
        if dx == 0 { return 90 }
        let degrees = degreesPerRadian * atanf(Float(dy) / Float(dx))
        let wide = Double(degrees)
        return Int32(wide < 0 ? wide - 0.5 : wide + 0.5)
    }

    /// The direction of a vector between cluster centroids, in `(-180, 180]`: the quadrant
    /// is restored here, and the rounding's ±0.5 is done in single precision.
    @inline(__always)
    static func vectorDirection(dx: Int32, dy: Int32) -> Int32 {
        if dx == 0 { return dy > 0 ? 90 : -90 }
        var degrees = degreesPerRadian * atanf(Float(dy) / Float(dx))
        if degrees < 0 {
            degrees = dx < 0 ? degrees + 180.5 : degrees - 0.5
        } else {
            degrees = dx < 0 ? degrees - 180.5 : degrees + 0.5
        }
        let angle = Int32(degrees)
        return angle <= -180 ? angle &+ 360 : angle
    }

    /// Rounds half away from zero with the ±0.5 in single precision (so 0.49999997 gives 1).
    @inline(__always)
    static func rounded(_ value: Float) -> Int32 {
        Int32(value < 0 ? value - 0.5 : value + 0.5)
    }

    /// The mean of angles the way bozorth3 takes it: when the positive and negative
    /// angles are more than 180° apart, the negative ones are carried round by 360°.
    /// `divisor` is the library's own (the member count, or 2 for a pair of clusters).
    static func meanAngle(positiveSum: Int32, positiveCount: Int32, negativeSum: Int32, negativeCount: Int32,
                          divisor: Float) -> Int32 {
        var positives = positiveCount
        var negatives = negativeCount
        if negatives == 0 {
            negatives = 1
        } else if positives == 0 {
            positives = 1
        }
        var mean = Float(positiveSum) / Float(positives) - Float(negativeSum) / Float(negatives)
        if mean > 180 {
            mean = Float(positiveSum &+ negativeSum &+ 360 &* negatives) / divisor
            if mean > 180 { mean -= 360 }
        } else {
            mean = Float(positiveSum &+ negativeSum) / divisor
        }
        let angle = rounded(mean)
        return angle <= -180 ? angle &+ 360 : angle
    }

    /// ``meanAngle(positiveSum:positiveCount:negativeSum:negativeCount:divisor:)`` of two angles.
    static func meanAngle(_ a: Int32, _ b: Int32) -> Int32 {
        var sums: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        func add(_ angle: Int32) {
            if angle >= 0 { sums.0 &+= angle; sums.1 += 1 } else { sums.2 &+= angle; sums.3 += 1 }
        }
        add(a)
        add(b)
        return meanAngle(positiveSum: sums.0, positiveCount: sums.1, negativeSum: sums.2, negativeCount: sums.3,
                         divisor: 2)
    }
}
