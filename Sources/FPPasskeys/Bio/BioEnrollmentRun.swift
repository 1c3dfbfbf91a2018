import FPAuthentication
import Synchronization

/// One enrollment begun by enrollBegin: fpbridge's own enrollment of one finger (``Enrollment``,
/// through ``PasskeyVault/enroll(_:standingOn:beforeSave:)``), which holds the reader from its
/// first scan to its save, its updates kept as the samples enrollCaptureNextSample hands out in
/// order. The reader may take a sample before the host asks for it; none is lost or skipped.
///
/// The print is saved only once the host waits for the last sample, and that is the one point
/// of no return: before it, a cancel, a timeout or a host gone (``abandon()``) ends the
/// enrollment with nothing saved, however many touches the reader took; after it, the host's
/// wait is answered by the save's own outcome and nothing else, so that what the host is told
/// is what happened.
final class BioEnrollmentRun: Sendable {
    /// A sample as the host is told of it, or why the enrollment ended.
    enum Outcome: Sendable {
        /// A sample and the samples still needed: 0 once the print is saved, more with
        /// `exists` (the finger is enrolled already, and the enrollment is over).
        case sample(BioSampleStatus, remaining: Int)
        case failed(CTAP2Error)
    }

    /// The finger being enrolled, whose id the template has.
    let finger: Finger
    private struct State {
        var ready: [Outcome] = []
        var waiter: CheckedContinuation<Outcome, Never>?
        /// The enrollment's save, waiting for the host to ask for the last sample.
        var save: CheckedContinuation<Void, Never>?
        /// The save went ahead: only its outcome answers the waiter.
        var saving = false
        /// Given up before the save: the save never goes ahead.
        var abandoned = false
        /// No outcome comes after those in `ready`.
        var over = false
    }

    private let state = Mutex(State())
    private let reading = Mutex<Task<Void, Never>?>(nil)

    /// Follows the enrollment of `finger` that `start` begins, given the wait its save must
    /// make (``PasskeyVault/enroll(_:standingOn:beforeSave:)``).
    init(finger: Finger,
         start: (_ beforeSave: @escaping @Sendable () async throws -> Void) -> AsyncThrowingStream<EnrollmentUpdate, any Error>) {
        self.finger = finger
        let updates = start { [weak self] in
            guard let self else { throw CancellationError() }
            try await self.hostAsked()
        }
        let task = Task { [self] in await follow(updates) }
        reading.withLock { $0 = task }
    }

    /// Whether the enrollment is over (saved, refused, failed or cancelled).
    var isOver: Bool { state.withLock { $0.over } }
    /// Whether every scan is taken and the save waits for the host to ask for the last sample.
    var isWaitingToSave: Bool { state.withLock { $0.save != nil } }

    /// The next sample, or why the enrollment ended; waits for the reader until it has one. A
    /// wait cancelled before the save is `CTAP2_ERR_KEEPALIVE_CANCEL`, and abandons the
    /// enrollment; one cancelled during the save still gets the save's outcome.
    func next() async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let (now, save) = state.withLock { state -> (Outcome?, CheckedContinuation<Void, Never>?) in
                    if !state.ready.isEmpty { return (state.ready.removeFirst(), nil) }
                    if state.over { return (.failed(CTAP2Error(.invalidParameter, "the enrollment of the \(finger.rawValue) is over")), nil) }
                    if Task.isCancelled, !state.saving { return (.failed(Self.cancelled), nil) }
                    // One request at a time (CTAPHID's channel rule); a second wait is refused.
                    if state.waiter != nil { return (.failed(CTAP2Error(.other, "a sample is awaited already")), nil) }
                    state.waiter = continuation
                    // The host waits for the last sample: the save goes ahead, past any cancel.
                    guard let save = state.save, !state.abandoned else { return (nil, nil) }
                    state.save = nil
                    state.saving = true
                    return (nil, save)
                }
                if let now { continuation.resume(returning: now) }
                save?.resume()
            }
        } onCancel: {
            abandon()
        }
    }

    /// Gives the enrollment up unless its save went ahead: the host's wait, if any, is answered
    /// `CTAP2_ERR_KEEPALIVE_CANCEL`, the save never comes, and the reader is let go. Returns
    /// false, changing nothing, once the save went ahead (its outcome is the answer).
    @discardableResult
    func abandon() -> Bool {
        let taken = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, CheckedContinuation<Void, Never>?)? in
            guard !state.saving else { return nil }
            state.abandoned = true
            defer {
                state.waiter = nil
                state.save = nil
            }
            return (state.waiter, state.save)
        }
        guard let (waiter, save) = taken else { return false }
        waiter?.resume(returning: .failed(Self.cancelled))
        save?.resume()
        cancel()
        return true
    }

    /// Stops the enrollment's task: the reader is let go, and nothing is saved unless the save
    /// is under way (the waiter then gets what it came to).
    func cancel() {
        reading.withLock { $0 }?.cancel()
    }

    private static let cancelled = CTAP2Error(.keepaliveCancel, "the enrollment was cancelled")

    /// Returns once the host waits for a sample (at once if it does now, and nothing gave the
    /// enrollment up); throws when it was abandoned or cancelled first.
    private func hostAsked() async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.abandoned || Task.isCancelled { return true }
                    if state.waiter != nil {
                        state.saving = true
                        return true
                    }
                    state.save = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.save = nil }
                return state.save
            }?.resume()
        }
        let goAhead = state.withLock { $0.saving && !$0.abandoned }
        guard goAhead else { throw CancellationError() }
    }

    private func deliver(_ outcome: Outcome, final: Bool = false) {
        let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard !state.over else { return nil }
            state.over = final
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.ready.append(outcome)
            return nil
        }
        waiter?.resume(returning: outcome)
    }

    private func follow(_ updates: AsyncThrowingStream<EnrollmentUpdate, any Error>) async {
        var remaining = 0
        do {
            for try await update in updates {
                switch update {
                case .presentFinger(_, let stages): remaining = stages
                case .stage(let completed, let total):
                    remaining = max(0, total - completed)
                    // The last sample is told once the print is saved: the host's "done" is a saved print.
                    if remaining > 0 { deliver(.sample(.good, remaining: remaining)) }
                case .retry(let reason): deliver(.sample(BioSampleStatus(reason), remaining: remaining))
                case .saved: deliver(.sample(.good, remaining: 0), final: true)
                }
            }
            deliver(Task.isCancelled ? .failed(Self.cancelled) : .failed(CTAP2Error(.other, "the reader ended the enrollment without a print")),
                    final: true)
        } catch {
            deliver(Self.outcome(of: error, remaining: remaining), final: true)
        }
    }

    /// An enrollment's failure as the host is told: a finger enrolled already is the sample
    /// status EXISTS; the print quota is FP_DATABASE_FULL; the rest as every request's.
    private static func outcome(of error: any Error, remaining: Int) -> Outcome {
        // Enrollment's stream gives AuthErrors only (a cancel is one of them).
        guard let error = error as? AuthError else { return .failed(CTAP2Error(.other, "\(error)")) }
        if error.cause == .sensorHoldsFinger { return .sample(.exists, remaining: remaining) }
        switch error.code {
        case .alreadyEnrolled: return .sample(.exists, remaining: remaining)
        case .invalidInput: return .failed(CTAP2Error(.fingerprintDatabaseFull, error.message))
        default: return .failed(CTAP2Error(error))
        }
    }
}
