extension LAError {
    // Apple's static members, so that `catch LAError.userCancel` and
    // `case LAError.biometryLockout:` read as they do on Apple platforms. Each code's
    // meaning for an app is written here; its number is the one in the table
    // (`LAError.Code`, which is FPVocabulary's `AuthErrorCode`).

    /// The user failed to provide valid credentials: three failed matches in one
    /// evaluation, or a wrong passcode given up on.
    ///
    /// Matches with `catch LAError.authenticationFailed`.
    public static var authenticationFailed: Code { .authenticationFailed }
    /// The user pressed Cancel (at a terminal: Ctrl-C).
    ///
    /// Matches with `catch LAError.userCancel`.
    public static var userCancel: Code { .userCancel }
    /// The user pressed the fallback button under
    /// ``LAPolicy/deviceOwnerAuthenticationWithBiometrics``.
    ///
    /// Matches with `catch LAError.userFallback`.
    public static var userFallback: Code { .userFallback }
    /// The system ended the evaluation (a signal, suspend, another evaluation took the reader).
    ///
    /// Matches with `catch LAError.systemCancel`.
    public static var systemCancel: Code { .systemCancel }
    /// The user has no passcode; both policies need one.
    ///
    /// Matches with `catch LAError.passcodeNotSet`.
    public static var passcodeNotSet: Code { .passcodeNotSet }
    /// No reader, a reader that cannot be used, or no permission to open it.
    ///
    /// Matches with `catch LAError.biometryNotAvailable`.
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    /// The user has no finger enrolled on this reader.
    ///
    /// Matches with `catch LAError.biometryNotEnrolled`.
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    /// Too many failed matches in a row; the passcode ends it.
    ///
    /// Matches with `catch LAError.biometryLockout`.
    public static var biometryLockout: Code { .biometryLockout }
    /// The app called ``LAContext/invalidate()`` while the evaluation ran.
    ///
    /// Matches with `catch LAError.appCancel`.
    public static var appCancel: Code { .appCancel }
    /// The context was invalidated before this call.
    ///
    /// Matches with `catch LAError.invalidContext`.
    public static var invalidContext: Code { .invalidContext }
    /// Apple's: no companion device (Apple Watch). Never reported on Linux.
    ///
    /// Matches with `catch LAError.companionNotAvailable`.
    public static var companionNotAvailable: Code { .companionNotAvailable }
    /// Apple's: a removable biometric accessory is not paired. Never reported on Linux.
    ///
    /// Matches with `catch LAError.biometryNotPaired`.
    public static var biometryNotPaired: Code { .biometryNotPaired }
    /// The reader was unplugged during the evaluation.
    ///
    /// Matches with `catch LAError.biometryDisconnected`.
    public static var biometryDisconnected: Code { .biometryDisconnected }
    /// Apple's: invalid dimensions for an authentication view. Never reported on Linux.
    ///
    /// Matches with `catch LAError.invalidDimensions`.
    public static var invalidDimensions: Code { .invalidDimensions }
    /// The evaluation needed the user but ``LAContext/interactionNotAllowed`` is set.
    ///
    /// Matches with `catch LAError.notInteractive`.
    public static var notInteractive: Code { .notInteractive }
    /// fpbridge: the reader overheated from continuous scanning; ``LAError/retryAfter`` says when to try again.
    ///
    /// Matches with `catch LAError.readerTooHot`.
    public static var readerTooHot: Code { .readerTooHot }
    /// fpbridge: the reader is serving another evaluation.
    ///
    /// Matches with `catch LAError.readerBusy`.
    public static var readerBusy: Code { .readerBusy }
    /// fpbridge: no finger (or passcode) came before the timeout.
    ///
    /// Matches with `catch LAError.timedOut`.
    public static var timedOut: Code { .timedOut }
    /// fpbridge: too many wrong passcodes; ``LAError/retryAfter`` says when to try again.
    ///
    /// Matches with `catch LAError.passcodeLockout`.
    public static var passcodeLockout: Code { .passcodeLockout }
    /// fpbridge: a state file is damaged; the message names it. Fails closed until repaired.
    ///
    /// Matches with `catch LAError.stateDamaged`.
    public static var stateDamaged: Code { .stateDamaged }
    /// fpbridge: the reader failed (protocol error, I/O, driver failure).
    ///
    /// Matches with `catch LAError.readerFailure`.
    public static var readerFailure: Code { .readerFailure }
    /// fpbridge: bad input, such as an unknown user name or a malformed setting.
    ///
    /// Matches with `catch LAError.invalidInput`.
    public static var invalidInput: Code { .invalidInput }
    /// fpbridge: the finger is already enrolled.
    ///
    /// Matches with `catch LAError.alreadyEnrolled`.
    public static var alreadyEnrolled: Code { .alreadyEnrolled }
    /// fpbridge: the requested print does not exist.
    ///
    /// Matches with `catch LAError.notFound`.
    public static var notFound: Code { .notFound }
    /// fpbridge: the reader cannot do what was asked.
    ///
    /// Matches with `catch LAError.notSupported`.
    public static var notSupported: Code { .notSupported }
    /// fpbridge: the fake reader's script ran out of events.
    ///
    /// Matches with `catch LAError.scriptEnded`.
    public static var scriptEnded: Code { .scriptEnded }
    /// fpbridge: a `biometryCurrentSet` key was invalidated because the enrolled prints changed.
    ///
    /// Matches with `catch LAError.keyInvalidated`.
    public static var keyInvalidated: Code { .keyInvalidated }
    /// fpbridge: the service refused the caller (another user's data, a group it is not in).
    ///
    /// Matches with `catch LAError.notPermitted`.
    public static var notPermitted: Code { .notPermitted }
    /// fpbridge: a kiosk's PIN pad spent its budget of wrong PINs and rests; see `retryAfter`.
    ///
    /// Matches with `catch LAError.pinPadResting`.
    public static var pinPadResting: Code { .pinPadResting }
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
