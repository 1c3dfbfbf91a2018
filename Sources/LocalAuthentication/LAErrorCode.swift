extension LAError {
    /// Why an evaluation failed: Apple's codes with Apple's raw values, then
    /// fpbridge's additions for what a USB reader on Linux adds (from -2001 down,
    /// away from Apple's range).
    ///
    /// It is the engine's own table of codes (`AuthErrorCode`, from the FPVocabulary
    /// module, which this module re-exports) under Apple's name, so the codes and their
    /// numbers are written once and an engine error reaches the app unchanged. It
    /// behaves as Apple's enum: `LAError.Code.userCancel`, `LAError.Code(rawValue: -8)`,
    /// `switch error.code`, `CaseIterable`, and the deprecated names below
    /// (`touchIDLockout`, `touchIDNotAvailable`, `touchIDNotEnrolled`, `watchNotAvailable`).
    /// Apple's `companionNotAvailable` (-11), `biometryNotPaired` (-12) and
    /// `invalidDimensions` (-14) are there for source compatibility and are never reported.
    ///
    /// Each code is described at its static member on ``LAError``, from
    /// ``LAError/authenticationFailed`` to ``LAError/pinPadResting``. Code written for iOS
    /// switches over the codes with a `default` (or `@unknown default`) branch, and that
    /// branch is where fpbridge's additions land.
    public typealias Code = AuthErrorCode
}

// Apple's deprecated names, which the engine's vocabulary does not carry.
extension LAError.Code {
    /// The old name of `biometryLockout` (``LAError/biometryLockout``).
    @available(*, deprecated, renamed: "biometryLockout")
    public static var touchIDLockout: LAError.Code { .biometryLockout }
    /// The old name of `biometryNotAvailable` (``LAError/biometryNotAvailable``).
    @available(*, deprecated, renamed: "biometryNotAvailable")
    public static var touchIDNotAvailable: LAError.Code { .biometryNotAvailable }
    /// The old name of `biometryNotEnrolled` (``LAError/biometryNotEnrolled``).
    @available(*, deprecated, renamed: "biometryNotEnrolled")
    public static var touchIDNotEnrolled: LAError.Code { .biometryNotEnrolled }
    /// The old name of `companionNotAvailable` (``LAError/companionNotAvailable``).
    @available(*, deprecated, renamed: "companionNotAvailable")
    public static var watchNotAvailable: LAError.Code { .companionNotAvailable }
}
