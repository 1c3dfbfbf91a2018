import FPAuthentication
import Synchronization

/// One enrollment begun by enrollBegin: fpbridge's own enrollment of one finger (``Enrollment``,
/// through ``PasskeyVault/enroll(_:standingOn:)``), which holds the reader from its first scan to
/// its save, its updates kept as the samples enrollCaptureNextSample hands out in order. The
/// reader may take a sample before the host asks for it; none is lost or skipped. The print is
/// saved only once the host asks for the last sample: a host that cancelled, or went away,
/// leaves nothing enrolled however many touches the reader took.
final class BioEnrollmentRun: Sendable {
    /// A sample as the host is told of it, or why the enrollment ended.
    enum Outcome: Sendable {
        /// A sample and the samples still needed; 0 once the print is saved.
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

    /// The next sample, or why the enrollment ended; waits for the reader until it has one. A
    /// cancelled wait is `CTAP2_ERR_KEEPALIVE_CANCEL` (and leaves the enrollment to the caller).
    func next() async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let now: Outcome? = state.withLock { state in
                    if !state.ready.isEmpty { return state.ready.removeFirst() }
                    if state.over { return .failed(CTAP2Error(.invalidParameter, "the enrollment of the \(finger.rawValue) is over")) }
                    if Task.isCancelled { return .failed(Self.cancelled) }
                    // One request at a time (CTAPHID's channel rule); a second wait is refused.
                    if state.waiter != nil { return .failed(CTAP2Error(.other, "a sample is awaited already")) }
                    state.waiter = continuation
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                    return
                }
                // The host waits for the last sample: the save may go on.
                state.withLock { state in
                    defer { state.save = nil }
                    return state.save
                }?.resume()
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: .failed(Self.cancelled))
        }
    }

    /// Stops the enrollment: the reader is let go and nothing is saved (unless the save began).
    func cancel() {
        reading.withLock { $0 }?.cancel()
    }

    private static let cancelled = CTAP2Error(.keepaliveCancel, "the enrollment was cancelled")

    /// Returns once the host waits for a sample (at once if it does now); throws when the
    /// enrollment is cancelled first.
    private func hostAsked() async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.waiter != nil || Task.isCancelled { return true }
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
        try Task.checkCancellation()
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
        guard let error = error as? AuthError else {
            return .failed(error is CancellationError ? cancelled : CTAP2Error(.other, "\(error)"))
        }
        switch error.code {
        case _ where error.cause == .sensorHoldsFinger: return .sample(.exists, remaining: remaining)
        case .alreadyEnrolled: return .sample(.exists, remaining: remaining)
        case .invalidInput: return .failed(CTAP2Error(.fingerprintDatabaseFull, error.message))
        default: return .failed(CTAP2Error(error))
        }
    }
}
