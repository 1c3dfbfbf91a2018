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

    package var error: AuthError {
        switch self {
        case .user: AuthError(.userCancel, "cancelled by the user")
        case .system: AuthError(.systemCancel, "cancelled by the system")
        case .app: AuthError(.appCancel, "the context was invalidated while it was evaluating")
        }
    }
}
