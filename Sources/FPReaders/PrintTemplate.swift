import FPCore
import FoundationEssentials

/// The metadata an enrollment writes into the new print.
///
/// A bare template (all fields nil) is what a hardware self-test uses: match-on-chip
/// drivers write this metadata onto the sensor.
public struct PrintTemplate: Sendable, Hashable {
    /// The finger being enrolled.
    public var finger: Finger?
    /// Whose finger it is.
    public var username: String?
    /// When it was enrolled.
    public var enrollDate: Date?

    /// A template; every field is optional.
    public init(finger: Finger? = nil, username: String? = nil, enrollDate: Date? = nil) {
        self.finger = finger
        self.username = username
        self.enrollDate = enrollDate
    }

    /// A template with no metadata at all.
    public static let bare = PrintTemplate()
}
