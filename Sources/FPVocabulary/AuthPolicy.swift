/// What an evaluation requires (Apple's `LAPolicy`).
public enum AuthPolicy: String, Sendable, Hashable, CaseIterable {
    /// A fingerprint match, nothing else (`deviceOwnerAuthenticationWithBiometrics`).
    /// Choosing the fallback returns ``AuthErrorCode/userFallback`` to the caller.
    case biometrics
    /// Fingerprint first when available, else the passcode (`deviceOwnerAuthentication`).
    case deviceOwner = "device-owner"
}
