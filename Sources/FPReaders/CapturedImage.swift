import FPCore
import FoundationEssentials

/// An 8-bit greyscale image as the reader returned it.
public struct CapturedImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Row-major pixel values, `width * height` bytes.
    public let pixels: [UInt8]

    /// An image of `width` × `height` 8-bit grey pixels, row by row.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "image data does not match its size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
