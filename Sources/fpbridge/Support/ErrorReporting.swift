import FPAuthentication

extension AuthErrorCode {
    /// The process exit status a command ends with for this error:
    /// 1 authentication not successful, 2 usage or bad input, 3 reader or environment problem.
    var exitStatus: Int32 {
        switch self {
        case .authenticationFailed, .userCancel, .userFallback, .systemCancel, .biometryLockout,
             .appCancel, .notInteractive, .timedOut, .passcodeLockout, .pinPadResting:
            1
        case .invalidInput, .alreadyEnrolled, .notFound, .invalidContext, .notPermitted:
            2
        case .passcodeNotSet, .biometryNotAvailable, .biometryNotEnrolled, .biometryDisconnected,
             .readerTooHot, .readerBusy, .stateDamaged, .readerFailure, .notSupported, .scriptEnded, .keyInvalidated,
             .companionNotAvailable, .biometryNotPaired, .invalidDimensions:  // Apple's, never produced
            3
        }
    }

    /// What the person at the terminal can do about it with fpbridge's own commands, if anything:
    /// chosen by the code and the error's ``AuthErrorCause``, never by its words.
    func hint(_ error: AuthError) -> String? {
        switch (self, error.cause) {
        case (.passcodeNotSet, _): "set a passcode with 'fpbridge passcode set'"
        case (_, .damagedState): "'fpbridge repair' lists what is damaged; 'fpbridge repair --yes' moves it aside"
        case (_, .noReader): "'--reader fake' tries fpbridge without hardware; 'fpbridge doctor' checks the reader's setup"
        case (_, .keyLabelTaken): "'fpbridge key delete --label LABEL' removes it"
        case (.alreadyEnrolled, _): "enroll it again with --replace"
        case (.keyInvalidated, _): "'fpbridge key delete --label LABEL', then 'fpbridge key create' makes a new key"
        case (_, .sensorHoldsFinger), (_, .sensorCopyKept): "'fpbridge selftest --steps clear --yes' wipes the sensor's storage"
        case (_, .unsafeStateDirectory): "use a state directory of your own (--state-dir), or give it to its user with mode 0700"
        case (_, .kioskHoldsReader): "an administrator enrolls at the kiosk with 'fpbridge enroll --at-kiosk'; or 'sudo systemctl stop fpbridge-kiosk' first"
        case (_, .kioskEnrolling): "wait for the enrollment at the kiosk to end, then try again"
        case (_, .diskFull): "free space on the disk that holds the state directory ('df' shows it), then try again"
        case (_, .stateNotWritable): "'fpbridge doctor' checks the state directory's owner and mode"
        case (_, .serviceAnswer): "'fpbridge status' shows the versions of fpbridge and fpbridged, which must agree; 'systemctl status fpbridged' whether it stopped"
        default: nil
        }
    }
}
