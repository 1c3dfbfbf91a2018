import FoundationEssentials

/// Binary PGM (`P5`), the format libfprint's own image tools and the shared prints use.
enum PGMCodec {
    static func encode(_ image: GreyImage) -> Data {
        var data = Data("P5\n\(image.width) \(image.height)\n255\n".utf8)
        data.append(contentsOf: image.pixels)
        return data
    }

    static func decode(_ data: Data, path: String) throws(ImageFileError) -> GreyImage {
        let bytes = [UInt8](data)
        var index = 0
        var fields: [String] = []
        while fields.count < 4 {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { throw .unreadable(path: path, reason: "the PGM header ends early") }
            if bytes[index] == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                continue
            }
            let start = index
            while index < bytes.count, !isSpace(bytes[index]) { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields[0] == "P5" else { throw .unreadable(path: path, reason: "not a binary PGM (P5) file") }
        guard let width = Int(fields[1]), let height = Int(fields[2]), width > 0, height > 0, width <= 1 << 15, height <= 1 << 15
        else { throw .unreadable(path: path, reason: "bad size '\(fields[1]) \(fields[2])'") }
        guard fields[3] == "255" else { throw .unreadable(path: path, reason: "only 8-bit PGM (maxval 255) is supported") }
        guard bytes.count - index >= width * height else {
            throw .unreadable(path: path, reason: "\(width)x\(height) pixels announced, \(max(0, bytes.count - index)) bytes present")
        }
        return GreyImage(width: width, height: height, pixels: Array(bytes[index..<(index + width * height)]))!
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
