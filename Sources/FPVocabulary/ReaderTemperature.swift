/// The reader's thermal state. libfprint stops image readers that scan for
/// about three minutes without a pause (``hot``) until they cool down.
public enum ReaderTemperature: String, Sendable, Codable, Hashable {
    /// Scans freely.
    case cold
    /// Has scanned for a while; may soon need a pause.
    case warm
    /// Stopped until it cools down (see `coolingTime`).
    case hot

    /// How long an overheated reader needs, idle, before libfprint lets it scan
    /// again: about 3.4 minutes by libfprint 1.94's thermal model, rounded up.
    public static let coolingTime: Double = 210
}
