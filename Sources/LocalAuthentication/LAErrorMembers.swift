extension LAError {
    // Apple's static members, so that `catch LAError.userCancel` and
    // `case LAError.biometryLockout:` read as they do on Apple platforms.

    /// ``Code/authenticationFailed``, for matching: `catch LAError.authenticationFailed`.
    public static var authenticationFailed: Code { .authenticationFailed }
    /// ``Code/userCancel``, for matching: `catch LAError.userCancel`.
    public static var userCancel: Code { .userCancel }
    /// ``Code/userFallback``, for matching: `catch LAError.userFallback`.
    public static var userFallback: Code { .userFallback }
    /// ``Code/systemCancel``, for matching: `catch LAError.systemCancel`.
    public static var systemCancel: Code { .systemCancel }
    /// ``Code/passcodeNotSet``, for matching: `catch LAError.passcodeNotSet`.
    public static var passcodeNotSet: Code { .passcodeNotSet }
    /// ``Code/biometryNotAvailable``, for matching: `catch LAError.biometryNotAvailable`.
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    /// ``Code/biometryNotEnrolled``, for matching: `catch LAError.biometryNotEnrolled`.
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    /// ``Code/biometryLockout``, for matching: `catch LAError.biometryLockout`.
    public static var biometryLockout: Code { .biometryLockout }
    /// ``Code/appCancel``, for matching: `catch LAError.appCancel`.
    public static var appCancel: Code { .appCancel }
    /// ``Code/invalidContext``, for matching: `catch LAError.invalidContext`.
    public static var invalidContext: Code { .invalidContext }
    /// ``Code/companionNotAvailable``, for matching: `catch LAError.companionNotAvailable`.
    public static var companionNotAvailable: Code { .companionNotAvailable }
    /// ``Code/biometryNotPaired``, for matching: `catch LAError.biometryNotPaired`.
    public static var biometryNotPaired: Code { .biometryNotPaired }
    /// ``Code/biometryDisconnected``, for matching: `catch LAError.biometryDisconnected`.
    public static var biometryDisconnected: Code { .biometryDisconnected }
    /// ``Code/invalidDimensions``, for matching: `catch LAError.invalidDimensions`.
    public static var invalidDimensions: Code { .invalidDimensions }
    /// ``Code/notInteractive``, for matching: `catch LAError.notInteractive`.
    public static var notInteractive: Code { .notInteractive }
    /// ``Code/readerTooHot``, for matching: `catch LAError.readerTooHot`.
    public static var readerTooHot: Code { .readerTooHot }
    /// ``Code/readerBusy``, for matching: `catch LAError.readerBusy`.
    public static var readerBusy: Code { .readerBusy }
    /// ``Code/timedOut``, for matching: `catch LAError.timedOut`.
    public static var timedOut: Code { .timedOut }
    /// ``Code/passcodeLockout``, for matching: `catch LAError.passcodeLockout`.
    public static var passcodeLockout: Code { .passcodeLockout }
    /// ``Code/stateDamaged``, for matching: `catch LAError.stateDamaged`.
    public static var stateDamaged: Code { .stateDamaged }
    /// ``Code/readerFailure``, for matching: `catch LAError.readerFailure`.
    public static var readerFailure: Code { .readerFailure }
    /// ``Code/invalidInput``, for matching: `catch LAError.invalidInput`.
    public static var invalidInput: Code { .invalidInput }
    /// ``Code/alreadyEnrolled``, for matching: `catch LAError.alreadyEnrolled`.
    public static var alreadyEnrolled: Code { .alreadyEnrolled }
    /// ``Code/notFound``, for matching: `catch LAError.notFound`.
    public static var notFound: Code { .notFound }
    /// ``Code/notSupported``, for matching: `catch LAError.notSupported`.
    public static var notSupported: Code { .notSupported }
    /// ``Code/scriptEnded``, for matching: `catch LAError.scriptEnded`.
    public static var scriptEnded: Code { .scriptEnded }
    /// ``Code/keyInvalidated``, for matching: `catch LAError.keyInvalidated`.
    public static var keyInvalidated: Code { .keyInvalidated }
    /// ``Code/notPermitted``, for matching: `catch LAError.notPermitted`.
    public static var notPermitted: Code { .notPermitted }
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
