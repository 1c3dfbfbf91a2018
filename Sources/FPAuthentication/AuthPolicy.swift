import FPCore
import FPReaders

/// What an evaluation requires (Apple's `LAPolicy`).
public enum AuthPolicy: String, Sendable, Hashable, CaseIterable {
    /// A fingerprint match, nothing else (`deviceOwnerAuthenticationWithBiometrics`).
    /// Choosing the fallback returns ``AuthErrorCode/userFallback`` to the caller.
    case biometrics
    /// Fingerprint first when available, else the passcode (`deviceOwnerAuthentication`).
    case deviceOwner = "device-owner"
}

/// The biometry kind (Apple's `LABiometryType`), known after an availability check.
public enum BiometryType: String, Sendable, Hashable, Codable {
    case none
    case fingerprint
}

/// What an availability check found out, whether or not the policy can be evaluated.
public struct Availability: Sendable, Hashable {
    public let biometryType: BiometryType
    /// The reader's scan type when a reader is present.
    public let scanType: ScanType?
    /// Nil when the policy can be evaluated now.
    public let error: AuthError?

    public var available: Bool { error == nil }
}

/// How an evaluation succeeded.
public enum AuthMethod: String, Sendable, Hashable, Codable {
    case fingerprint
    case passcode
    /// A success within the reuse window was returned without a new scan.
    case reused
}

/// The result of a successful evaluation.
public struct AuthSuccess: Sendable, Hashable {
    public let method: AuthMethod
    /// The user authenticated (for identification: the user found).
    public let user: String
    /// The matched finger, when a fingerprint decided.
    public let finger: Finger?
}

