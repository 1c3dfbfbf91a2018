import FPAuthentication
import FPLocalAPI

/// Which readers an identification (a kiosk's) is armed on, and which an enrollment runs on:
/// the one rule for how an enrollment and a kiosk share a reader.
///
/// An armed identification takes the next finger on its reader. An enrollment started
/// elsewhere would wait for its turn while the enrolling person's first touch went to the
/// identification, as a stranger's (issue 40: the kiosk counted it, then the enrollment
/// overheated the reader). So an enrollment is refused while an identification is armed on
/// its reader, unless it is made at the kiosk (`atKiosk`, an administrator's): that one ends the
/// armed identifications (a cancelled scan counts nothing) and publishes its progress for the
/// kiosk's page (`GET /v1/reader`). The claim is made when the enrollment takes the reader,
/// after its passcode (``ServiceReaderTurn/claim``), not when it is asked for: a user who
/// leaves the prompt open must not stall the kiosk, and a kiosk that armed meanwhile is found
/// then. From there either kind holds off every new identification on its reader until it
/// ends. Arming and a claim take one lock, so nothing is armed between the check and the claim.
package final class KioskReaderClaims: Sendable {
    private struct Enrolling {
        /// The enrollments running on the reader, by operation id: true for one at the kiosk.
        var operations: [String: Bool] = [:]
        /// The progress of the latest enrollment at the kiosk, for the page.
        var progress: ReaderReport.Enrolling?
    }

    private struct State {
        /// Armed identifications per reader, by operation id.
        var armed: [ReaderIdentity: [String: Operation]] = [:]
        var enrolling: [ReaderIdentity: Enrolling] = [:]
    }

    private let state = Locked(State())

    package init() {}

    /// What an identification ended by, or refused for, an enrollment at the kiosk hears.
    package static let enrolling = AuthError(.readerBusy, "an administrator is enrolling a finger at this reader; "
                                             + "identification resumes when the enrollment ends", retryAfter: 1, cause: .kioskEnrolling)

    /// What an identification asked for during another enrollment on its reader hears.
    package static let enrollingElsewhere = AuthError(.readerBusy, "a finger is being enrolled on this reader; "
                                                      + "identification resumes when the enrollment ends", retryAfter: 1)

    /// What an enrollment started elsewhere hears while an identification is armed on `reader`.
    package static func held(_ reader: ReaderIdentity) -> AuthError {
        AuthError(.readerBusy, "an identification (a kiosk's) is armed on the reader \(reader) and would take the first scan "
                  + "of this enrollment; enroll at the kiosk instead (an administrator's 'fpbridge enroll --at-kiosk', which pauses "
                  + "its identification and shows the progress on its page), or stop the kiosk first (sudo systemctl stop fpbridge-kiosk)",
                  cause: .kioskHoldsReader)
    }

    /// Records `operation` as an identification armed on `reader`, until ``disarm(_:)``.
    /// - Throws: ``enrolling`` while an administrator enrolls at that reader,
    ///   ``enrollingElsewhere`` during another enrollment there.
    package func arm(_ operation: Operation, on reader: ReaderIdentity) throws(AuthError) {
        try state.withLock { (state) throws(AuthError) in
            if let enrolling = state.enrolling[reader] {
                throw enrolling.operations.values.contains(true) ? Self.enrolling : Self.enrollingElsewhere
            }
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

    /// Claims `reader` for `operation`, an enrollment taking it, until ``endEnrollment(_:on:)``
    /// (again for a later turn of the same enrollment: nothing changes then). Made elsewhere,
    /// it is refused while an identification is armed there; made at the kiosk, it ends the
    /// armed identifications.
    /// - Throws: ``held(_:)`` for an enrollment made elsewhere on a reader an identification is armed on.
    package func beginEnrollment(_ operation: Operation, on reader: ReaderIdentity, atKiosk: Bool) throws(AuthError) {
        let ended = try state.withLock { (state) throws(AuthError) -> [Operation] in
            let armed = (state.armed[reader] ?? [:]).values.filter { !$0.isCancelled }
            if !atKiosk, !armed.isEmpty { throw Self.held(reader) }
            state.enrolling[reader, default: Enrolling()].operations[operation.id] = atKiosk
            if atKiosk { state.enrolling[reader]?.progress = ReaderReport.Enrolling(stage: 0, stages: nil) }
            return atKiosk ? Array(armed) : []
        }
        for operation in ended { operation.cancel(.system, saying: Self.enrolling) }
    }

    /// How far the enrollment at the kiosk on `reader` has come.
    package func progress(on reader: ReaderIdentity, stage: Int, of stages: Int) {
        state.withLock { state in
            guard state.enrolling[reader]?.progress != nil else { return }
            state.enrolling[reader]?.progress = ReaderReport.Enrolling(stage: stage, stages: stages)
        }
    }

    /// The enrollment ended (saved, failed or cancelled): once none runs on `reader`,
    /// identification may arm again.
    package func endEnrollment(_ operation: Operation, on reader: ReaderIdentity) {
        state.withLock { state in
            guard var enrolling = state.enrolling[reader] else { return }
            enrolling.operations[operation.id] = nil
            if !enrolling.operations.values.contains(true) { enrolling.progress = nil }
            state.enrolling[reader] = enrolling.operations.isEmpty ? nil : enrolling
        }
    }

    /// The enrollment at the kiosk in progress on `reader`, if any (`GET /v1/reader`).
    package func enrollment(on reader: ReaderIdentity) -> ReaderReport.Enrolling? {
        state.withLock { $0.enrolling[reader]?.progress }
    }
}
