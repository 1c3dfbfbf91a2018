import FPAuthentication

extension CTAP2Error {
    /// The CTAP2 answer to a failure of the engine: the one table from fpbridge's errors to
    /// CTAP's, so that the platform's own fallback follows (a locked finger is UV_BLOCKED, and
    /// the platform asks for the PIN; a failed match is UV_INVALID, and it offers another try).
    package init(_ error: AuthError) {
        let status: CTAP2Status = switch error.code {
        case .authenticationFailed: .uvInvalid
        // Five failures in a row, or iOS's "password needed again" (after a boot, 48 hours, a lock).
        case .biometryLockout, .passcodeLockout: .uvBlocked
        case .userCancel, .systemCancel, .appCancel: .keepaliveCancel
        case .timedOut: .userActionTimeout
        // A deleted or invalidated passkey is one the site no longer has here.
        case .notFound, .keyInvalidated: .noCredentials
        case .passcodeNotSet, .biometryNotEnrolled, .biometryNotAvailable, .biometryDisconnected, .notPermitted: .operationDenied
        // The key quota (the one refusal of valid input that creation has).
        case .invalidInput: .keyStoreFull
        default: .other
        }
        self.init(status, error.message)
    }
}
