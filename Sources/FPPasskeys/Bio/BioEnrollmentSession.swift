import FPAuthentication
import Synchronization

/// The bio enrollment in progress on one device, from enrollBegin to its last sample, its
/// cancel, or the device's end (``close()``: fpbridged's device ends when the seat changes
/// hands, so that no later touch enrolls a finger for someone no longer there). An enrollment
/// the host stops following (no request for ``idleLimit``) is given up too.
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

    private struct State {
        var current: Current?
        /// The device ended: no enrollment begins any more.
        var closed = false
    }

    private let state = Mutex(State())
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A session timed by `clock` (tests advance it).
    package init<C: Clock<Duration>>(clock: C = ContinuousClock()) {
        sleep = { try await clock.sleep(for: $0) }
    }

    /// The enrollment in progress, if any.
    var run: BioEnrollmentRun? {
        state.withLock { $0.current?.run }
    }

    /// Makes `run` the enrollment in progress, an earlier one given up, and starts its idle
    /// watch. On a device that ended, `run` is given up at once.
    func begin(_ run: BioEnrollmentRun) {
        let old = state.withLock { state -> BioEnrollmentRun?? in
            guard !state.closed else { return .none }
            defer { state.current = Current(run: run) }
            return .some(state.current?.run)
        }
        guard let old else {
            run.abandon()
            return
        }
        old?.abandon()
        watchIdle(run, 0)
    }

    /// Gives up the enrollment in progress, if any (cancelCurrentEnrollment).
    func cancel() {
        state.withLock { state in
            defer { state.current = nil }
            return state.current?.run
        }?.abandon()
    }

    /// The device's end: the enrollment in progress is given up, and none begins after.
    package func close() {
        state.withLock { state in
            state.closed = true
            defer { state.current = nil }
            return state.current?.run
        }?.abandon()
    }

    /// The next sample of `run`, waited for at most `limit` (nil: as long as the enrollment's
    /// own scan timeout lets it). A wait that ends without one (the limit, the host's CANCEL)
    /// gives the enrollment up, unless its save went ahead: then the save's outcome is the answer.
    func sample(of run: BioEnrollmentRun, within limit: Duration?) async -> BioEnrollmentRun.Outcome {
        let generation = state.withLock { state -> Int? in
            guard state.current?.run === run else { return nil }
            state.current?.generation += 1
            return state.current?.generation
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
            // The host's limit passed: given up, unless the save went ahead, whose outcome is awaited.
            if let first = await group.next(), let outcome = first { return outcome }
            return run.abandon() ? nil : (await group.next() ?? nil)
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

    /// Gives `run` up and forgets it, if it is the one in progress.
    private func end(_ run: BioEnrollmentRun) {
        state.withLock { state in
            if state.current?.run === run { state.current = nil }
        }
        run.abandon()
    }

    /// Gives `run` up when no request for a sample came within ``idleLimit`` of the last answer
    /// (generation `generation`), the session dropped meanwhile included.
    private func watchIdle(_ run: BioEnrollmentRun, _ generation: Int) {
        let sleep = sleep
        Task { [weak self] in
            do { try await sleep(Self.idleLimit) } catch { return }
            guard let self else {
                run.abandon()
                return
            }
            guard state.withLock({ $0.current?.run === run && $0.current?.generation == generation }) else { return }
            end(run)
        }
    }
}
