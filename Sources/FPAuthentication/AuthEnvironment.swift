import FPCore
import FPReaders
import FPStore

/// Everything a context works with: who, which reader, where state lives, and the numbers.
public struct AuthEnvironment: Sendable {
    /// The user being authenticated (verification) or enrolling.
    public var user: String
    /// The opened reader, or nil when none is available.
    public var reader: (any FingerprintReader)?
    public var stateDirectory: StateDirectory
    public var configuration: AuthConfiguration

    public init(user: String, reader: (any FingerprintReader)?, stateDirectory: StateDirectory,
                configuration: AuthConfiguration) {
        self.user = user
        self.reader = reader
        self.stateDirectory = stateDirectory
        self.configuration = configuration
    }

    var prints: PrintStore { PrintStore(directory: stateDirectory) }
    var counters: CounterStore { CounterStore(directory: stateDirectory) }
    var passcodes: PasscodeStore { PasscodeStore(directory: stateDirectory) }
}

/// Narrows a biometric evaluation: which fingers count, and how many failed matches it allows.
public struct BiometricOptions: Sendable, Hashable {
    /// The fingers that may match; nil means any enrolled finger.
    public var fingers: Set<Finger>?
    /// At most this many failed matches end the evaluation (never above the configured limit).
    public var maxFailedMatches: Int?

    public init(fingers: Set<Finger>? = nil, maxFailedMatches: Int? = nil) {
        self.fingers = fingers
        self.maxFailedMatches = maxFailedMatches
    }
}

/// Why a running evaluation was stopped from outside.
public enum CancelReason: Sendable, Hashable {
    /// The person cancelled (Ctrl-C at a terminal).
    case user
    /// The system did (shutdown, a signal).
    case system
    /// The app invalidated the context.
    case app

    var error: AuthError {
        switch self {
        case .user: AuthError(.userCancel, "cancelled by the user")
        case .system: AuthError(.systemCancel, "cancelled by the system")
        case .app: AuthError(.appCancel, "the context was invalidated while it was evaluating")
        }
    }
}
