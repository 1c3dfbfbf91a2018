/// A choice the user made in a prompt instead of presenting a finger.
public enum UserChoice: String, Sendable, Hashable {
    /// The user pressed the cancel button.
    case cancel
    /// The user pressed the fallback button (e.g. "Enter passcode").
    case fallback
}
