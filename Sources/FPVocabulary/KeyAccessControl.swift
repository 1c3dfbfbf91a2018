/// What must happen before a key signs (Apple's `SecAccessControlCreateFlags`).
///
/// Stored and encoded as the case names (`"biometryCurrentSet"`, …).
public enum KeyAccessControl: String, Sendable, Hashable, Codable, CaseIterable {
    /// A fingerprint match, with the prints as they were when the key was made:
    /// adding or removing a print invalidates the key for good.
    case biometryCurrentSet
    /// A fingerprint match with any print enrolled now.
    case biometryAny
    /// A fingerprint match, or the passcode (the device-owner policy).
    case userPresence
    /// The passcode only.
    case devicePasscode

    /// Whether the key needs a print enrolled when it is made, and a match to sign.
    package var needsBiometry: Bool {
        switch self {
        case .biometryCurrentSet, .biometryAny: true
        case .userPresence, .devicePasscode: false
        }
    }
}
