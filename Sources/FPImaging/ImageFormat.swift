/// The file formats a captured image can be written in.
public enum ImageFormat: String, Sendable, CaseIterable {
    /// Binary portable greymap (`P5`), 8 bits per pixel.
    case pgm
    /// PNG, 8-bit greyscale.
    case png

    /// The format a path's extension names, case-insensitively.
    public init(path: String) throws(ImageFileError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."),
              let format = ImageFormat(rawValue: name[name.index(after: dot)...].lowercased()) else {
            throw .unsupportedFormat(path: path)
        }
        self = format
    }
}
