import FPAuthentication
import Synchronization

/// The bio enrollment in progress on one device, from enrollBegin to its last sample, its
/// cancel, or the device's end (``cancel()``: fpbridged's device ends when the seat changes
/// hands, so that no later touch enrolls a finger for someone no longer there). An enrollment
/// the host stops following (no request for ``idleLimit``) is cancelled too.
package final class BioEnrollmentSession: Sendable {
    /// How long an enrollment waits for the host's next request before it is cancelled: a
    /// host asks for the next sample at once, and one that went away must not leave the reader
    /// held, nor a touch meant for another door enrolled.
    package static let idleLimit: Duration = .seconds(30)
    /// The longest wait for one sample a host may ask for (its timeoutMilliseconds).
    static let longestSampleWait: Duration = .seconds(120)

    private struct Current {
        var run: BioEnrollmentRun
        /// Bumped by every request for a sample, so that an idle timer set before it does nothing.
        var generation = 0
    }

    private let current = Mutex<Current?>(nil)
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A session timed by `clock` (tests advance it).
    package init<C: Clock<Duration>>(clock: C = ContinuousClock()) {
        sleep = { try await clock.sleep(for: $0) }
    }

    /// The enrollment in progress, if any.
    var run: BioEnrollmentRun? {
        current.withLock { $0?.run }
    }

    /// Makes `run` the enrollment in progress; an earlier one is cancelled.
    func begin(_ run: BioEnrollmentRun) {
        let old = current.withLock { current in
            defer { current = Current(run: run) }
            return current?.run
        }
        old?.cancel()
    }

    /// Cancels the enrollment in progress, if any.
    package func cancel() {
        current.withLock { current in
            defer { current = nil }
            return current?.run
        }?.cancel()
    }

    /// The next sample of `run`, waited for at most `limit` (nil: as long as the enrollment's
    /// own scan timeout lets it). A wait that ends without one (the limit, the host's CANCEL)
    /// cancels the enrollment: the host starts again.
    func sample(of run: BioEnrollmentRun, within limit: Duration?) async -> BioEnrollmentRun.Outcome {
        let generation = current.withLock { current -> Int? in
            guard current?.run === run else { return nil }
            current?.generation += 1
            return current?.generation
        }
        guard let generation else { return .failed(CTAP2Error(.invalidParameter, "no enrollment of that template is in progress")) }
        let outcome: BioEnrollmentRun.Outcome? = await withTaskGroup(of: BioEnrollmentRun.Outcome?.self) { group in
            group.addTask { await run.next() }
            if let limit {
                let sleep = sleep
                group.addTask {
                    do { try await sleep(min(limit, Self.longestSampleWait)) } catch { return .failed(CTAP2Error(.keepaliveCancel, "cancelled")) }
                    return nil
                }
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        guard let outcome else {
            end(run)
            return .failed(CTAP2Error(.userActionTimeout, "no sample was given within the host's timeout; the enrollment stopped"))
        }
        if case .failed = outcome { end(run) }
        if run.isOver {
            end(run)
        } else {
            watchIdle(run, generation)
        }
        return outcome
    }

    /// Cancels `run` and forgets it, if it is the one in progress.
    private func end(_ run: BioEnrollmentRun) {
        current.withLock { current in
            if current?.run === run { current = nil }
        }
        run.cancel()
    }

    private func watchIdle(_ run: BioEnrollmentRun, _ generation: Int) {
        let sleep = sleep
        Task { [weak self] in
            do { try await sleep(Self.idleLimit) } catch { return }
            guard let self, current.withLock({ $0?.run === run && $0?.generation == generation }) else { return }
            end(run)
        }
    }
}
