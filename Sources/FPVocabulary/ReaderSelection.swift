import FoundationEssentials

/// Which reader to use, as `--reader` or `FPBRIDGE_READER` spell it:
/// `auto`, `libfprint`, `libfprint:DRIVER`, `fake` or `fake:SCRIPTFILE`. A name only: `FPReaders` finds
/// the readers it names (`candidates()`, `reader()`, `watch()`), so that a client of `fpbridged` can
/// name a reader without linking libfprint.
public enum ReaderSelection: Sendable, Hashable, CustomStringConvertible {
    /// The first reader libfprint finds.
    case auto
    /// The first libfprint reader, or the first with the given driver id.
    case libfprint(driver: String?)
    /// The fake reader, playing the given script (none: a reader with no events).
    case fake(scriptPath: String?)

    /// Parses a `--reader` value.
    public init(parsing text: String) throws(AuthError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let argument = parts.count > 1 ? parts[1] : nil
        switch parts[0] {
        case "auto" where argument == nil: self = .auto
        case "libfprint": self = .libfprint(driver: argument.flatMap { $0.isEmpty ? nil : $0 })
        case "fake": self = .fake(scriptPath: argument.flatMap { $0.isEmpty ? nil : $0 })
        default:
            throw AuthError(.invalidInput, "unknown reader '\(text)'; use auto, libfprint, libfprint:DRIVER, fake or fake:SCRIPTFILE")
        }
    }

    /// The selection as `--reader` spells it.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .libfprint(nil): "libfprint"
        case .libfprint(let driver?): "libfprint:\(driver)"
        case .fake(nil): "fake"
        case .fake(let path?): "fake:\(path)"
        }
    }
}
