import FPCore
import FPReaders
import FPStore

/// Narrows a biometric evaluation: which fingers count, and how many failed matches it allows.
public struct BiometricOptions: Sendable, Hashable {
    /// The fingers that may match; nil means any enrolled finger.
    public var fingers: Set<Finger>?
    /// At most this many failed matches end the evaluation (never above the configured limit).
    public var maxFailedMatches: Int?

    /// Options; the defaults allow any enrolled finger and the configured number of failures.
    public init(fingers: Set<Finger>? = nil, maxFailedMatches: Int? = nil) {
        self.fingers = fingers
        self.maxFailedMatches = maxFailedMatches
    }
}
