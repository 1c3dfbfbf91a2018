import FPAuthentication
import FPLocalAPI

/// Which readers an identification (a kiosk's) is armed on, and which an administrator is
/// enrolling at: the one rule for how an enrollment and a kiosk share a reader.
///
/// An armed identification takes the next finger on its reader. An enrollment started
/// elsewhere would wait for its turn while the administrator's first touch went to the
/// identification, as a stranger's (issue 40: the kiosk counted it, then the enrollment
/// overheated the reader). So an enrollment is refused while an identification is armed on
/// its reader, unless it is made at the kiosk (`atKiosk`, an administrator's): that one ends the
/// armed identification (a cancelled scan counts nothing), holds off every new one until it
/// ends, and publishes its progress for the kiosk's page (`GET /v1/reader`). Arming and the
/// start of an enrollment take one lock, so no identification is armed between the two.
package final class KioskReaderClaims: Sendable {
    private struct State {
        /// Armed identifications per reader, by operation id.
        var armed: [ReaderIdentity: [String: Operation]] = [:]
        /// Enrollments at the kiosk in progress, and how far each has come.
        var enrolling: [ReaderIdentity: ReaderReport.Enrolling] = [:]
    }

    private let state = Locked(State())

    package init() {}

    /// What an identification ended by, or refused for, an enrollment at the kiosk hears.
    package static let enrolling = AuthError(.readerBusy, "an administrator is enrolling a finger at this reader; "
                                             + "identification resumes when the enrollment ends", retryAfter: 1, cause: .kioskEnrolling)

    /// What an enrollment started elsewhere hears while an identification is armed on `reader`.
    package static func held(_ reader: ReaderIdentity) -> AuthError {
        AuthError(.readerBusy, "an identification (a kiosk's) is armed on the reader \(reader) and would take the first scan "
                  + "of this enrollment; enroll at the kiosk instead (an administrator's 'fpbridge enroll --at-kiosk', which pauses "
                  + "its identification and shows the progress on its page), or stop the kiosk first (sudo systemctl stop fpbridge-kiosk)",
                  cause: .kioskHoldsReader)
    }

    /// Records `operation` as an identification armed on `reader`, until ``disarm(_:)``.
    /// - Throws: ``enrolling`` while an administrator enrolls at that reader.
    package func arm(_ operation: Operation, on reader: ReaderIdentity) throws(AuthError) {
        try state.withLock { (state) throws(AuthError) in
            if state.enrolling[reader] != nil { throw Self.enrolling }
            state.armed[reader, default: [:]][operation.id] = operation
        }
    }

    /// The identification ended.
    package func disarm(_ operation: Operation) {
        state.withLock { state in
            for reader in state.armed.keys { state.armed[reader]?[operation.id] = nil }
        }
    }

    /// Whether an identification that is still running is armed on `reader`.
    package func isArmed(_ reader: ReaderIdentity) -> Bool {
        state.withLock { state in
            state.armed[reader]?.values.contains { !$0.isCancelled } ?? false
        }
    }

    /// Starts an enrollment on `reader`. Made elsewhere, it is refused while an identification
    /// is armed there; made at the kiosk, it ends the armed identifications and holds off new
    /// ones until ``endEnrollment(on:)``.
    /// - Throws: ``held(_:)`` for an enrollment made elsewhere on a reader an identification is armed on.
    package func beginEnrollment(on reader: ReaderIdentity, atKiosk: Bool) throws(AuthError) {
        let ended = try state.withLock { (state) throws(AuthError) -> [Operation] in
            let armed = (state.armed[reader] ?? [:]).values.filter { !$0.isCancelled }
            guard atKiosk else {
                if !armed.isEmpty { throw Self.held(reader) }
                return []
            }
            state.enrolling[reader] = ReaderReport.Enrolling(stage: 0, stages: nil)
            return Array(armed)
        }
        for operation in ended { operation.cancel(.system, saying: Self.enrolling) }
    }

    /// How far the enrollment at the kiosk on `reader` has come.
    package func progress(on reader: ReaderIdentity, stage: Int, of stages: Int) {
        state.withLock { state in
            guard state.enrolling[reader] != nil else { return }
            state.enrolling[reader] = ReaderReport.Enrolling(stage: stage, stages: stages)
        }
    }

    /// The enrollment at the kiosk on `reader` ended (saved, failed or cancelled): identification may arm again.
    package func endEnrollment(on reader: ReaderIdentity) {
        _ = state.withLock { $0.enrolling.removeValue(forKey: reader) }
    }

    /// The enrollment at the kiosk in progress on `reader`, if any (`GET /v1/reader`).
    package func enrollment(on reader: ReaderIdentity) -> ReaderReport.Enrolling? {
        state.withLock { $0.enrolling[reader] }
    }
}
