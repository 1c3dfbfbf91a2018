internal import CLibpng

/// PNG through libpng's simplified API.
enum PNGCodec {
    static func write(_ image: GreyImage, to path: String) throws(ImageFileError) {
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = png_uint_32(PNG_FORMAT_GRAY)
        let written = image.pixels.withUnsafeBytes { pixels in
            png_image_write_to_file(&png, path, 0, pixels.baseAddress, png_int_32(image.width), nil)
        }
        guard written != 0 else { throw .unwritable(path: path, reason: message(of: &png)) }
    }

    /// Reads a PNG as 8-bit grey. A colour PNG is accepted only when every pixel is
    /// grey (red = green = blue), so that no conversion ever alters a value.
    static func read(_ path: String) throws(ImageFileError) -> GreyImage {
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&png, path) != 0 else {
            throw .unreadable(path: path, reason: message(of: &png))
        }
        defer { png_image_free(&png) }
        let width = Int(png.width), height = Int(png.height)
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw .unreadable(path: path, reason: "bad size \(width)x\(height)")
        }
        let colour = png.format & png_uint_32(PNG_FORMAT_FLAG_COLOR) != 0
        let channels = colour ? 3 : 1
        png.format = colour ? png_uint_32(PNG_FORMAT_FLAG_COLOR) : png_uint_32(PNG_FORMAT_GRAY)
        var buffer = [UInt8](repeating: 0, count: width * height * channels)
        let read = buffer.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&png, nil, bytes.baseAddress, png_int_32(width * channels), nil)
        }
        guard read != 0 else { throw .unreadable(path: path, reason: message(of: &png)) }
        guard colour else { return GreyImage(width: width, height: height, pixels: buffer)! }
        var grey = [UInt8](repeating: 0, count: width * height)
        for pixel in 0..<(width * height) {
            let red = buffer[pixel * 3], green = buffer[pixel * 3 + 1], blue = buffer[pixel * 3 + 2]
            guard red == green, green == blue else {
                throw .unreadable(path: path, reason: "pixel \(pixel % width),\(pixel / width) is not grey")
            }
            grey[pixel] = red
        }
        return GreyImage(width: width, height: height, pixels: grey)!
    }

    private static func message(of png: inout png_image) -> String {
        withUnsafeBytes(of: &png.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
