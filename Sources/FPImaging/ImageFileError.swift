/// Why an image file could not be read or written; each names the file.
public enum ImageFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extension names no format this tool writes.
    case unsupportedFormat(path: String)
    /// The file could not be read or is not a valid image of its format.
    case unreadable(path: String, reason: String)
    /// The file could not be written.
    case unwritable(path: String, reason: String)

    /// What went wrong, naming the file.
    public var description: String {
        switch self {
        case .unsupportedFormat(let path):
            "cannot tell the image format of \(path): use a name ending in .pgm or .png"
        case .unreadable(let path, let reason): "cannot read the image \(path): \(reason)"
        case .unwritable(let path, let reason): "cannot write the image \(path): \(reason)"
        }
    }
}
