import FPCore
import FPReaders
import FPStore

/// Narrows a biometric evaluation: which fingers count, and how many failed matches it allows.
public struct BiometricOptions: Sendable, Hashable {
    /// The fingers that may match; nil means any enrolled finger.
    public var fingers: Set<Finger>?
    /// At most this many failed matches end the evaluation (never above the configured limit).
    public var maxFailedMatches: Int?
    /// For an identification: the one person the touch is compared with, named by the person
    /// (a badge at the kiosk). Only their prints are scored, at that gallery's threshold, and a
    /// failure still counts on the reader's identification count, never on theirs: a
    /// bystander who knows a badge number cannot lock its owner's finger. nil: everyone.
    public var claimedUser: String?

    /// Options; the defaults allow any enrolled finger and the configured number of failures.
    public init(fingers: Set<Finger>? = nil, maxFailedMatches: Int? = nil, claimedUser: String? = nil) {
        self.fingers = fingers
        self.maxFailedMatches = maxFailedMatches
        self.claimedUser = claimedUser
    }
}
