/// Error codes: Apple's `LAError` numbers, so that habits and code written
/// against LocalAuthentication carry over, plus Linux-only codes from -2001
/// down, well away from Apple's range.
///
/// This is the one table of codes. The `LocalAuthentication` module's
/// `LAError.Code` is this type under Apple's name, so an app's `switch error.code`,
/// `LAError.Code(rawValue:)` and `catch LAError.userCancel` see exactly these cases
/// and numbers. For that, the table also holds Apple's three codes that have no
/// meaning on Linux (``companionNotAvailable``, ``biometryNotPaired``,
/// ``invalidDimensions``): fpbridge never produces them.
public enum AuthErrorCode: Int, Sendable, CaseIterable, Codable {
    /// Three failed matches in one evaluation (or a wrong passcode).
    case authenticationFailed = -1
    /// The user cancelled (Ctrl-C, the cancel button).
    case userCancel = -2
    /// The user chose the fallback button under the biometrics-only policy.
    case userFallback = -3
    /// The system ended the evaluation (shutdown, signal, another evaluation took the reader).
    case systemCancel = -4
    /// The user has no passcode; enrollment and both policies need one.
    case passcodeNotSet = -5
    /// No reader, a reader that cannot be used, or no permission to open it.
    case biometryNotAvailable = -6
    /// The user has no print on this reader.
    case biometryNotEnrolled = -7
    /// Too many failed matches; a correct passcode ends it.
    case biometryLockout = -8
    /// The app cancelled or invalidated the context while it ran.
    case appCancel = -9
    /// The context was invalidated before this call.
    case invalidContext = -10
    /// Apple's: no companion device (Apple Watch) is available. Never produced by fpbridge.
    case companionNotAvailable = -11
    /// Apple's: a removable biometric accessory is not paired. Never produced by fpbridge.
    case biometryNotPaired = -12
    /// The reader went away during the evaluation.
    case biometryDisconnected = -13
    /// Apple's: an authentication view was given invalid dimensions. Never produced by fpbridge.
    case invalidDimensions = -14
    /// Interaction was forbidden but needed.
    case notInteractive = -1004

    /// The reader overheated from continuous scanning; see `retryAfter`.
    case readerTooHot = -2001
    /// The reader is serving another operation.
    case readerBusy = -2002
    /// Nobody presented a finger (or passcode) before the timeout.
    case timedOut = -2003
    /// Too many wrong passcodes; see `retryAfter`.
    case passcodeLockout = -2004
    /// A state file is damaged; the message names it.
    case stateDamaged = -2005
    /// The reader failed (protocol error, I/O, driver failure).
    case readerFailure = -2006
    /// Bad input: an unknown finger or user name, a malformed script or option.
    case invalidInput = -2007
    /// The finger is already enrolled (use --replace).
    case alreadyEnrolled = -2008
    /// The requested print does not exist.
    case notFound = -2009
    /// The reader cannot do this (no capture, no storage, …).
    case notSupported = -2010
    /// The fake reader's script ran out of events.
    case scriptEnded = -2011
    /// The key's access control is `biometryCurrentSet` and the user's prints
    /// changed since it was made: it can never sign again.
    case keyInvalidated = -2012
    /// The caller may not do this: act for another user, identify outside the kiosk group,
    /// repair without being an administrator (the service answers 403).
    case notPermitted = -2013
    /// A kiosk's PIN pad spent its budget of wrong PINs, whoever they were for: the kiosk
    /// rests, not the user (whose own limit is ``passcodeLockout``); see `retryAfter`.
    case pinPadResting = -2014

    /// The name used in JSON output: Apple's case name for Apple's codes.
    public var name: String { String(describing: self) }
}
