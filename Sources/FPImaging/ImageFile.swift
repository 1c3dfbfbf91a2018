import FPCore
import FoundationEssentials

/// Reads and writes greyscale images as PGM or PNG, chosen by the file's extension.
public enum ImageFile {
    /// Writes `image` to `path` in the format its extension names, replacing any file there.
    public static func write(_ image: GreyImage, to path: String) throws(ImageFileError) {
        switch try ImageFormat(path: path) {
        case .pgm:
            // A random name: one left behind by a killed run (or a run with the same pid, as
            // PID 1 in every container run) never blocks the next write.
            let replaced = Array(PGMCodec.encode(image)).withUnsafeBytes { bytes in
                FileReplacement.replace(path, with: bytes, mode: 0o644) {
                    path + ".partial-" + String(UInt64.random(in: .min ... .max), radix: 36)
                }
            }
            if let failure = replaced {
                throw .unwritable(path: path, reason: failure.reason)
            }
        case .png:
            try PNGCodec.write(image, to: path)
        }
    }

    /// Reads the image at `path`; the format comes from the extension.
    public static func read(_ path: String) throws(ImageFileError) -> GreyImage {
        switch try ImageFormat(path: path) {
        case .pgm:
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .unreadable(path: path, reason: "no such file or not readable")
            }
            return try PGMCodec.decode(data, path: path)
        case .png:
            return try PNGCodec.read(path)
        }
    }
}
