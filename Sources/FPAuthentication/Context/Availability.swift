import FPCore
import FPReaders

/// What an availability check found out, whether or not the policy can be evaluated.
public struct Availability: Sendable, Hashable {
    /// The biometry kind: `fingerprint` when a reader is present.
    public let biometryType: BiometryType
    /// The reader's scan type when a reader is present.
    public let scanType: ScanType?
    /// Nil when the policy can be evaluated now.
    public let error: AuthError?

    /// True when the policy can be evaluated now.
    public var available: Bool { error == nil }
}
