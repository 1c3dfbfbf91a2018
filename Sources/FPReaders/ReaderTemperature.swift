import FPCore

/// The reader's thermal state. libfprint stops image readers that scan for
/// about three minutes without a pause (``hot``) until they cool down.
public enum ReaderTemperature: String, Sendable, Codable, Hashable {
    case cold
    case warm
    case hot
}
