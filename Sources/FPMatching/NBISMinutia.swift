/// One minutia of a stored NBIS sample, in the convention libfprint stores.
///
/// libfprint converts mindtct's minutiae to NIST's convention before it stores them:
/// `x` as detected, `y` measured upwards from the bottom of the image, `theta` in degrees
/// in `-179...180`. The matcher takes the values as they are, without sorting or clamping
/// them: bozorth3 gives an unsorted or out-of-range sample a score too, and the same one
/// must come out here.
public struct NBISMinutia: Sendable, Hashable {
    /// Column, in pixels.
    public var x: Int32
    /// Row, in pixels, counted from the bottom of the image.
    public var y: Int32
    /// Direction, in degrees.
    public var theta: Int32

    /// A minutia from its stored values.
    public init(x: Int32, y: Int32, theta: Int32) {
        self.x = x
        self.y = y
        self.theta = theta
    }
}
