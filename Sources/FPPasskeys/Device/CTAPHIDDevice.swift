import FoundationEssentials

/// Whatever answers a CTAP2 message: ``CTAP2Authenticator`` for one user, or fpbridged's
/// device, which finds the user of each request (the person at the seat) before it asks one.
package protocol CTAP2Answering: Sendable {
    /// The answer to one CBOR message (the command byte, then its parameters); every fault is
    /// an answer with CTAP's status.
    func answer(_ message: [UInt8]) async -> CTAP2Answer
}

extension CTAP2Authenticator: CTAP2Answering {}

/// One CTAPHID device at work: ``CTAPHIDTransport``'s rules, a ``CTAP2Answering``'s answers,
/// KEEPALIVE every ``keepaliveInterval`` while a request waits (UPNEEDED while the finger is
/// awaited), and the packet deadline. Reports from the host go to ``receive(_:)``; the reports
/// to send come out of ``reports`` in order. Whatever carries them (a `/dev/uhid` device, a
/// socket in the tests) is not its business.
///
/// Time comes from the clock it is given, so that a test of the 1 s packet timeout or of the
/// keepalives advances a clock rather than waits.
package actor CTAPHIDDevice {
    /// How often a waiting request says it is still alive (CTAP 2.1 §11.2.9.1.4: at most
    /// every 100 ms, and hosts give up after a few seconds without one).
    package static let keepaliveInterval: Duration = .milliseconds(100)

    /// The reports to send to the host, in order; finishes after ``close()``.
    package nonisolated let reports: AsyncStream<[UInt8]>
    /// The CTAP2 answers as they are sent, for the log and the tests.
    package nonisolated let answers: AsyncStream<CTAP2Answer>

    private let output: AsyncStream<[UInt8]>.Continuation
    private let answered: AsyncStream<CTAP2Answer>.Continuation
    private var transport = CTAPHIDTransport()
    private let authenticator: any CTAP2Answering
    private let elapsed: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    /// The transport's instants are this one moved on by the injected clock's elapsed time.
    private let base = ContinuousClock.now
    private var work: [UInt64: Task<Void, Never>] = [:]
    private var deadline: Task<Void, Never>?

    /// A device answering with `authenticator`, timed by `clock`.
    package init<C: Clock<Duration>>(authenticator: any CTAP2Answering, clock: C = ContinuousClock()) {
        self.authenticator = authenticator
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { duration in try await clock.sleep(for: duration) }
        (reports, output) = AsyncStream.makeStream()
        (answers, answered) = AsyncStream.makeStream()
    }

    /// One report from the host.
    package func receive(_ report: [UInt8]) {
        handle(transport.receive(report, at: now))
        scheduleDeadline()
    }

    /// Stops: every request in progress is cancelled and the streams end.
    package func close() {
        for task in work.values { task.cancel() }
        work = [:]
        deadline?.cancel()
        output.finish()
        answered.finish()
    }

    private var now: ContinuousClock.Instant { base + elapsed() }

    private func handle(_ events: [CTAPHIDEvent]) {
        for event in events {
            switch event {
            case .send(let reports): for report in reports { output.yield(report) }
            case .request(let request): start(request)
            case .cancelled(let request): work.removeValue(forKey: request.id)?.cancel()
            case .ignored: break
            }
        }
    }

    private func start(_ request: CTAPHIDRequest) {
        let authenticator = authenticator
        let waitsForTheUser = CTAP2Command.waitsForTheUser(request.payload)
        work[request.id] = Task {
            let answer = await withTaskGroup(of: Void.self) { group -> CTAP2Answer in
                group.addTask { await self.keepAlive(request, waitsForTheUser ? .userPresenceNeeded : .processing) }
                let answer = await authenticator.answer(request.payload)
                group.cancelAll()
                return answer
            }
            self.finish(request, answer)
        }
    }

    private func finish(_ request: CTAPHIDRequest, _ answer: CTAP2Answer) {
        work[request.id] = nil
        let reports = transport.respond(to: request, command: request.command, payload: answer.bytes)
        for report in reports { output.yield(report) }
        if !reports.isEmpty { answered.yield(answer) }
    }

    private func keepAlive(_ request: CTAPHIDRequest, _ status: CTAPHIDKeepaliveStatus) async {
        while true {
            do { try await sleep(Self.keepaliveInterval) } catch { return }
            guard transport.pendingRequest == request, let report = transport.keepalive(status) else { return }
            output.yield(report)
        }
    }

    private func scheduleDeadline() {
        deadline?.cancel()
        guard let next = transport.nextDeadline else {
            deadline = nil
            return
        }
        // The transport ends a message strictly after its deadline: wake just past it.
        let wait = now.duration(to: next) + .milliseconds(1)
        deadline = Task {
            do { try await self.sleep(wait) } catch { return }
            self.expire()
        }
    }

    private func expire() {
        handle(transport.expire(at: now))
        scheduleDeadline()
    }
}
