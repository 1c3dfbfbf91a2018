/// How one verify or identify scan ended.
public enum MatchOutcome: Sendable, Hashable {
    /// The finger matched; for identify, the index into the gallery (0 for verify).
    case match(galleryIndex: Int)
    /// A finger was read and matched nothing.
    case noMatch
    /// The reader could not read the finger properly and asks for another try.
    case retry(RetryReason)
    /// The user answered the prompt instead of scanning (fake reader scripts only;
    /// real front ends deliver these choices themselves).
    case userChoice(UserChoice)
}
