import FPAuthentication

/// fprintd's name for how a Start ended when it did not succeed: the final `EnrollStatus` and
/// `VerifyStatus` (`done` true), in one place for both.
///
/// A reader's own error is named from one table keyed by libfprint's device error
/// (`AuthError.readerFault` (FPVocabulary)), as fprintd names the `GError` it gets; the engine's own ends
/// (a cancel, a lockout, a save that failed) follow it.
package enum FprintdEnding {
    /// The two names of one ending.
    package struct Names: Equatable, Sendable {
        package var enroll: String
        package var verify: String
    }

    /// The final status for `error`, already the cancel's error when the action was cancelled
    /// (``Operation/outcome(_:)``): a cancel is named as a cancel whatever the reader said.
    package static func names(_ error: AuthError) -> Names {
        if let fault = error.readerFault { return names(fault) }
        switch error.code {
        // The client's Stop or Release, or a wrong finger: fprintd's cancelled operation.
        case .userCancel, .appCancel, .authenticationFailed, .biometryLockout: return Names(enroll: "enroll-failed", verify: "verify-no-match")
        case .alreadyEnrolled: return Names(enroll: "enroll-duplicate", verify: "verify-unknown-error")
        case .biometryDisconnected: return names(.removed)
        case .readerTooHot: return names(.tooHot)
        // Sleep, a reader that failed without a device error.
        case .systemCancel, .readerFailure, .readerBusy, .notSupported:
            return Names(enroll: "enroll-unknown-error", verify: "verify-unknown-error")
        // What failed was ours, not the reader's (the save, the state, the scan timeout fprintd
        // does not have): fprintd says enroll-failed when it cannot save.
        default: return Names(enroll: "enroll-failed", verify: "verify-unknown-error")
        }
    }

    /// The table: libfprint's device error -> fprintd's names. Measured against fprintd 1.94.2
    /// (`FprintdDeviceErrorTests`); removed, too hot and a duplicate on the sensor are named as
    /// fprintd names them since 1.94.5 (docs/desktop.md: where it differs from fprintd on purpose).
    package static func names(_ fault: ReaderFault) -> Names {
        switch fault {
        case .protocolError, .removed, .tooHot: Names(enroll: "enroll-disconnected", verify: "verify-disconnected")
        case .dataFull: Names(enroll: "enroll-data-full", verify: "verify-unknown-error")
        case .dataDuplicate: Names(enroll: "enroll-duplicate", verify: "verify-unknown-error")
        // The print asked for is not on the sensor: no match, so that pam_fprintd gives
        // another try (during an enrollment's own scans it is unknown, as with fprintd).
        case .dataNotFound: Names(enroll: "enroll-unknown-error", verify: "verify-no-match")
        case .general, .notSupported, .notOpen, .alreadyOpen, .busy, .dataInvalid:
            Names(enroll: "enroll-unknown-error", verify: "verify-unknown-error")
        }
    }
}
