import FPCore
import FPReaders
import FPStore

/// Why a running evaluation was stopped from outside.
public enum CancelReason: Sendable, Hashable {
    /// The person cancelled (Ctrl-C at a terminal).
    case user
    /// The system did (shutdown, a signal).
    case system
    /// The app invalidated the context.
    case app

    /// What an evaluation stopped from outside reports: the reason's error when the evaluation
    /// ended as cancelled, or in the ways a cancelled scan ends (the reader failing or timing
    /// out under it); any other error (a lockout, a match) as it is. One rule for the engine's
    /// contexts and the service's operations.
    package static func outcome(_ error: any Error, reason: CancelReason?) -> AuthError {
        let mapped = AuthError(error)
        guard let reason, error is CancellationError || [.systemCancel, .readerFailure, .timedOut].contains(mapped.code)
        else { return mapped }
        return reason.error
    }

    package var error: AuthError {
        switch self {
        case .user: AuthError(.userCancel, "cancelled by the user")
        case .system: AuthError(.systemCancel, "cancelled by the system")
        case .app: AuthError(.appCancel, "the context was invalidated while it was evaluating")
        }
    }
}
