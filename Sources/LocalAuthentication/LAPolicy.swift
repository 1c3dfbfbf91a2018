import FPVocabulary

/// What an evaluation requires, with Apple's names and raw values.
public enum LAPolicy: Int, Sendable, Hashable, CaseIterable {
    /// A fingerprint match and nothing else. The fallback button, once shown,
    /// ends the evaluation with ``LAError/userFallback`` for the app to handle.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// A fingerprint match when one is possible, else the user's passcode; the
    /// fallback button and a biometry lockout lead to the passcode.
    case deviceOwnerAuthentication = 2

    /// The engine's name for the same policy.
    var engine: AuthPolicy {
        switch self {
        case .deviceOwnerAuthenticationWithBiometrics: .biometrics
        case .deviceOwnerAuthentication: .deviceOwner
        }
    }
}
