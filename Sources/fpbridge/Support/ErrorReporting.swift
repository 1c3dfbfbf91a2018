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

    /// What the person at the terminal can do about it with fpbridge's own commands, if anything.
    func hint(_ error: AuthError) -> String? {
        switch self {
        case .passcodeNotSet: "set a passcode with 'fpbridge passcode set'"
        case .stateDamaged where error.message.contains("damaged"):
            "'fpbridge repair' lists what is damaged; 'fpbridge repair --yes' moves it aside"
        case .biometryLockout where error.message.contains("damaged"):
            "'fpbridge repair' lists what is damaged; 'fpbridge repair --yes' moves it aside"
        case .biometryNotAvailable where error.message.contains("no fingerprint reader was found"):
            "'--reader fake' tries fpbridge without hardware; 'fpbridge doctor' checks the reader's setup"
        case .alreadyEnrolled where error.message.contains("key labelled"): "'fpbridge key delete --label LABEL' removes it"
        case .alreadyEnrolled: "enroll it again with --replace"
        case .keyInvalidated: "'fpbridge key delete --label LABEL', then 'fpbridge key create' makes a new key"
        case .readerFailure where error.message.contains("already holds this finger"):
            "'fpbridge selftest --steps clear --yes' wipes the sensor's storage"
        case .stateDamaged where error.message.contains("belongs to"):
            "use a state directory of your own (--state-dir), or chown it"
        default: nil
        }
    }
}
