/// Why a reader asks for the finger again. A retry is a hint to the user,
/// never a failed match.
public enum RetryReason: String, Sendable, Codable, Hashable, CaseIterable {
    /// The scan did not work; try again.
    case general
    /// The swipe was too short.
    case tooShort = "too-short"
    /// The finger was not centred.
    case center
    /// Lift the finger and touch again.
    case remove

    /// What to tell the user.
    public var hint: String {
        switch self {
        case .general: "The scan did not work; try again"
        case .tooShort: "The swipe was too short; try again"
        case .center: "Center your finger on the reader and try again"
        case .remove: "Remove your finger and try again"
        }
    }
}
