/// Synthetic images for the fake reader's capture: a deterministic ridge-like
/// pattern derived from the finger id, so that one id always gives one image.
enum FakeImage {
    static let width = 64
    static let height = 64

    static func render(fingerID: String) -> CapturedImage {
        // FNV-1a keeps the pattern stable across runs and platforms, unlike Hasher.
        var seed: UInt32 = 2_166_136_261
        for byte in fingerID.utf8 {
            seed = (seed ^ UInt32(byte)) &* 16_777_619
        }
        let period = Int(seed % 5) + 4
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let ring = (x - width / 2) * (x - width / 2) + (y - height / 2) * (y - height / 2)
                let band = (Int(Double(ring).squareRoot()) + Int(seed >> 8) % period) / period
                pixels[y * width + x] = band % 2 == 0 ? 40 : 215
            }
        }
        return CapturedImage(width: width, height: height, pixels: pixels)
    }
}
