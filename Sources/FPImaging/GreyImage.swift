/// An 8-bit greyscale image, row-major, as image files hold it.
public struct GreyImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` pixel values, top row first.
    public let pixels: [UInt8]

    /// Fails (returns nil) when the pixel count does not match the size.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
