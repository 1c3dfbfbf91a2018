extension LAError {
    /// Why an evaluation failed: Apple's codes with Apple's raw values, then
    /// fpbridge's additions for what a USB reader on Linux adds (from -2001 down,
    /// away from Apple's range).
    ///
    /// Code written for iOS switches over these with a `default` (or
    /// `@unknown default`) branch, and that branch is where the additions land.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// The user failed to provide valid credentials: three failed matches in one
        /// evaluation, or a wrong passcode given up on.
        case authenticationFailed = -1
        /// The user pressed Cancel (at a terminal: Ctrl-C).
        case userCancel = -2
        /// The user pressed the fallback button under
        /// ``LAPolicy/deviceOwnerAuthenticationWithBiometrics``.
        case userFallback = -3
        /// The system ended the evaluation (a signal, suspend, another evaluation took the reader).
        case systemCancel = -4
        /// The user has no passcode; both policies need one.
        case passcodeNotSet = -5
        /// No reader, a reader that cannot be used, or no permission to open it.
        case biometryNotAvailable = -6
        /// The user has no finger enrolled on this reader.
        case biometryNotEnrolled = -7
        /// Too many failed matches in a row; the passcode ends it.
        case biometryLockout = -8
        /// The app called ``LAContext/invalidate()`` while the evaluation ran.
        case appCancel = -9
        /// The context was invalidated before this call.
        case invalidContext = -10
        /// Apple's: no companion device (Apple Watch). Never reported on Linux.
        case companionNotAvailable = -11
        /// Apple's: a removable biometric accessory is not paired. Never reported on Linux.
        case biometryNotPaired = -12
        /// The reader was unplugged during the evaluation.
        case biometryDisconnected = -13
        /// Apple's: invalid dimensions for an authentication view. Never reported on Linux.
        case invalidDimensions = -14
        /// The evaluation needed the user but ``LAContext/interactionNotAllowed`` is set.
        case notInteractive = -1004

        /// fpbridge: the reader overheated from continuous scanning; ``LAError/retryAfter`` says when to try again.
        case readerTooHot = -2001
        /// fpbridge: the reader is serving another evaluation.
        case readerBusy = -2002
        /// fpbridge: no finger (or passcode) came before the timeout.
        case timedOut = -2003
        /// fpbridge: too many wrong passcodes; ``LAError/retryAfter`` says when to try again.
        case passcodeLockout = -2004
        /// fpbridge: a state file is damaged; the message names it. Fails closed until repaired.
        case stateDamaged = -2005
        /// fpbridge: the reader failed (protocol error, I/O, driver failure).
        case readerFailure = -2006
        /// fpbridge: bad input, such as an unknown user name or a malformed setting.
        case invalidInput = -2007
        /// fpbridge: the finger is already enrolled.
        case alreadyEnrolled = -2008
        /// fpbridge: the requested print does not exist.
        case notFound = -2009
        /// fpbridge: the reader cannot do what was asked.
        case notSupported = -2010
        /// fpbridge: the fake reader's script ran out of events.
        case scriptEnded = -2011
        /// fpbridge: a `biometryCurrentSet` key was invalidated because the enrolled prints changed.
        case keyInvalidated = -2012
        /// fpbridge: the service refused the caller (another user's data, a group it is not in).
        case notPermitted = -2013

        /// The old name of ``biometryLockout``.
        @available(*, deprecated, renamed: "biometryLockout")
        public static var touchIDLockout: Code { .biometryLockout }
        /// The old name of ``biometryNotAvailable``.
        @available(*, deprecated, renamed: "biometryNotAvailable")
        public static var touchIDNotAvailable: Code { .biometryNotAvailable }
        /// The old name of ``biometryNotEnrolled``.
        @available(*, deprecated, renamed: "biometryNotEnrolled")
        public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
        /// The old name of ``companionNotAvailable``.
        @available(*, deprecated, renamed: "companionNotAvailable")
        public static var watchNotAvailable: Code { .companionNotAvailable }
    }
}
