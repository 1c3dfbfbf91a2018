import FPCore
import Foundation

/// An 8-bit greyscale image as the reader returned it.
public struct CapturedImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Row-major pixel values, `width * height` bytes.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "image data does not match its size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
