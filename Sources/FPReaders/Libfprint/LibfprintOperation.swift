internal import CLibfprint

/// Carries one operation's completion from libfprint's finish callback back to
/// the task awaiting it, and keeps the operation's GObjects alive until then.
@GLibLoop
final class OperationBox {
    let complete: (OpaquePointer) -> Void
    /// Prints and galleries the running operation reads; released with the box, on the loop.
    var keep: [GObjectRef] = []
    /// Set by verify and identify: reads libfprint's match callback (``matchDecided``).
    var decided: ((_ match: OpaquePointer?, _ scan: OpaquePointer?, _ error: UnsafeMutablePointer<GError>?) -> Void)?

    init(_ complete: @escaping (OpaquePointer) -> Void) {
        self.complete = complete
    }
}

/// The `GAsyncReadyCallback` every operation finishes through.
let operationFinished: GAsyncReadyCallback = { _, result, data in
    // C pointers cross into the loop's isolation as plain addresses.
    GLibLoop.assumeIsolated { [box = UInt(bitPattern: data), result = UInt(bitPattern: result)] in
        Unmanaged<OperationBox>.fromOpaque(UnsafeRawPointer(bitPattern: box)!).takeRetainedValue()
            .complete(OpaquePointer(bitPattern: result)!)
    }
}

/// The `FpMatchCb` of verify and identify, given the operation's box as its data (unretained:
/// libfprint calls it before the finish callback, which releases the box). libfprint calls it
/// as soon as the match is decided, while an image reader may still wait for the finger to lift.
let matchDecided: FpMatchCb = { _, match, scan, data, error in
    GLibLoop.assumeIsolated { [box = UInt(bitPattern: data), match = UInt(bitPattern: match),
                               scan = UInt(bitPattern: scan), error = UInt(bitPattern: error)] in
        Unmanaged<OperationBox>.fromOpaque(UnsafeRawPointer(bitPattern: box)!).takeUnretainedValue()
            .decided?(OpaquePointer(bitPattern: match), OpaquePointer(bitPattern: scan),
                      UnsafeMutablePointer<GError>(bitPattern: error))
    }
}

/// Reads a decision from libfprint's match callback: the matched gallery print (borrowed),
/// the scan's print (borrowed) and a retry error (libfprint's), into the operation's answer.
typealias MatchDecision<T> = (_ match: OpaquePointer?, _ scan: OpaquePointer?, _ error: UnsafeMutablePointer<GError>?) throws -> T

/// What one operation decided in its match callback, and whether it was answered before the end.
@GLibLoop
private final class EarlyAnswer<T: Sendable> {
    var decided: Result<T, any Error>?
    var finished = false
    var lingering: LingeringOperation?
}

/// Work for the loop at low priority: after every event and idle already due (a finish
/// callback among them).
@GLibLoop
enum LoopIdle {
    private final class Work {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    static func low(_ run: @escaping () -> Void) {
        let data = Unmanaged.passRetained(Work(run)).toOpaque()
        g_idle_add_full(G_PRIORITY_LOW, { data in
            GLibLoop.assumeIsolated { [data = UInt(bitPattern: data)] in
                Unmanaged<Work>.fromOpaque(UnsafeRawPointer(bitPattern: data)!).takeRetainedValue().run()
            }
            return 0  // G_SOURCE_REMOVE
        }, data, nil)
    }
}

/// An operation that answered from its match callback and still runs in libfprint: an image
/// reader waits for the finger to lift before it ends the operation. The device takes no other
/// operation until it ends (libfprint would refuse it as busy).
@GLibLoop
final class LingeringOperation {
    private let cancellable: GObjectRef
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private(set) var ended = false

    init(cancellable: GObjectRef) {
        self.cancellable = cancellable
    }

    /// Stops waiting for the lift: the answer was given, nobody needs the rest.
    func cancel() {
        g_cancellable_cancel(cancellable.pointer.assumingMemoryBound(to: GCancellable.self))
    }

    func end() {
        ended = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    /// Returns once libfprint finished the operation.
    func wait() async {
        guard !ended else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

extension LoopDevice {
    /// How long a decided match waits for an operation whose finger is already off to end
    /// before it is answered anyway (the rest is cancelled). Real time, as ``FingerWait``'s:
    /// it bounds a real reader's own work. Long enough for a reader that ends its operation
    /// right after its report (every real one and libfprint's virtual ones) to be idle when
    /// the answer is known; short beside what a person waits for.
    static let decidedAnswerGrace: Duration = .milliseconds(300)

    /// Runs one asynchronous libfprint operation.
    ///
    /// `start` calls the libfprint function with the cancellable and, as callback
    /// data, the box pointer; it may throw to fail before starting. `finish` runs in
    /// the finish callback. Task cancellation cancels the operation's `GCancellable`
    /// on the loop thread, where libfprint's cancel handler expects to run.
    ///
    /// With `decision`, the operation answers from libfprint's match callback (``matchDecided``,
    /// passed by `start` with the box pointer as its data) as soon as the match is decided, and
    /// `finish` runs only to release what libfprint returns: the answer is given once, and what
    /// the reader reports after it (an error) never replaces it, as with fprintd. With the finger
    /// on the sensor the operation then lingers until it is lifted (``LingeringOperation``); with
    /// the finger off, the answer waits for the operation's end up to ``decidedAnswerGrace``,
    /// and the rest is cancelled.
    ///
    /// With `fingerTimeout`, the operation ends with ``ReaderError/timedOut`` when the reader
    /// has no scan in time (see ``FingerWait``); a lingering operation before it is waited for
    /// within that time too. Without one, a lingering operation is cancelled at once.
    ///
    /// `scans`: the operation heats the reader in libfprint's thermal model (enroll, verify,
    /// identify, capture), so its time is followed as scanning time, and a "too hot" says
    /// how long the reader now has to rest.
    func perform<T: Sendable>(
        fingerTimeout: Duration? = nil,
        scans: Bool = false,
        decision: MatchDecision<T>? = nil,
        start: (DevicePointer, UnsafeMutablePointer<GCancellable>, OperationBox, gpointer) throws -> Void,
        finish: @escaping (DevicePointer, OpaquePointer) throws -> T
    ) async throws -> T {
        try await endLingering(within: fingerTimeout)
        guard scans else { return try await perform(fingerTimeout: fingerTimeout, decision: decision, start: start, finish: finish) }
        heat.set(scanning: true)
        defer { heat.set(scanning: lingering != nil) }
        do {
            return try await perform(fingerTimeout: fingerTimeout, decision: decision, start: start, finish: finish)
        } catch ReaderError.tooHot {
            // libfprint's own model holds it as hot: its rest is known. A driver that reports
            // TOO_HOT by itself (the sensor's own sensing) leaves the wait unknown.
            let heat = currentHeat()
            throw ReaderError.tooHot(usableInSeconds: heat.hot ? heat.usableInSeconds : nil)
        }
    }

    /// Waits for an operation that answered early to end before the next one starts: up to
    /// `timeout` for the finger to lift (one placement is one scan), then it is cancelled and the
    /// wait reads as ``ReaderError/timedOut``; without a timeout it is cancelled at once.
    private func endLingering(within timeout: Duration?) async throws {
        while let lingering {
            guard let timeout else {
                lingering.cancel()
                await lingering.wait()
                continue
            }
            let timer = Task { @GLibLoop in
                try await Task.sleep(for: timeout)
                lingering.cancel()
            }
            await withTaskCancellationHandler {
                await lingering.wait()
            } onCancel: {
                Task { @GLibLoop in lingering.cancel() }
            }
            timer.cancel()
            if Task.isCancelled { throw ReaderError.cancelled }
            // The timer ran out: the finger stayed on the sensor for the whole wait.
            if case .success = await timer.result { throw ReaderError.timedOut }
        }
    }

    private func perform<T: Sendable>(
        fingerTimeout: Duration?,
        decision: MatchDecision<T>?,
        start: (DevicePointer, UnsafeMutablePointer<GCancellable>, OperationBox, gpointer) throws -> Void,
        finish: @escaping (DevicePointer, OpaquePointer) throws -> T
    ) async throws -> T {
        let cancellable = GObjectRef(taking: UnsafeMutableRawPointer(g_cancellable_new()!))
        let wait = fingerTimeout.map { timeout in
            let wait = FingerWait(device: pointer)
            wait.start(timeout: timeout, cancellable: cancellable)
            return wait
        }
        defer { wait?.stop() }
        do {
            return try await run(cancellable: cancellable, decision: decision, start: start, finish: finish)
        } catch ReaderError.cancelled where wait?.timedOut == true {
            throw ReaderError.timedOut
        }
    }

    private func run<T: Sendable>(
        cancellable: GObjectRef,
        decision: MatchDecision<T>?,
        start: (DevicePointer, UnsafeMutablePointer<GCancellable>, OperationBox, gpointer) throws -> Void,
        finish: @escaping (DevicePointer, OpaquePointer) throws -> T
    ) async throws -> T {
        let device = pointer
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let answer = EarlyAnswer<T>()
                let status = FingerStatus.listener.map { FingerStatusReport(device: device, listener: $0) }
                status?.start()
                let box = OperationBox { [self] result in
                    answer.finished = true
                    status?.stop()
                    guard let early = answer.lingering else {
                        if let decided = answer.decided {
                            // Decided in the match callback and not yet answered: the decision
                            // stands, as fprintd reports it at once and ignores what the reader
                            // says after it (an error, a cancellation); finish only releases.
                            _ = try? finish(device, result)
                            continuation.resume(with: decided)
                        } else {
                            continuation.resume(with: Result { try finish(device, result) })
                        }
                        return
                    }
                    // Answered already: finish only releases what libfprint hands back.
                    _ = try? finish(device, result)
                    if self.lingering === early {
                        self.lingering = nil
                        self.heat.set(scanning: false)
                    }
                    early.end()
                }
                if let decision {
                    box.decided = { [self] match, scan, error in
                        // A decision that arrives once the operation was cancelled (by its task
                        // or the finger timeout) is left to the finish callback, which reports
                        // the cancellation, as it did before answers came early.
                        let cancelled = g_cancellable_is_cancelled(cancellable.pointer.assumingMemoryBound(to: GCancellable.self)) != 0
                        guard answer.decided == nil, !cancelled else { return }
                        // Read now: libfprint's pointers are borrowed for the callback only.
                        answer.decided = Result { try decision(match, scan, error) }
                        status?.decide()
                        // Given once the loop has nothing more urgent to do, and only while the
                        // finger is still on the sensor: that is what the reader waits for (an
                        // image reader, until the lift). An operation that ends at once finishes
                        // first and answers as it always did, so the reader is idle when its answer
                        // is known and takes the next command in a new operation (virtual_device
                        // reports twice when a scan reaches it between its report and its end).
                        let answerNow = { @GLibLoop [self] () -> LingeringOperation? in
                            guard !answer.finished, answer.lingering == nil, let decided = answer.decided else { return nil }
                            let early = LingeringOperation(cancellable: cancellable)
                            answer.lingering = early
                            self.lingering = early
                            status?.flush()
                            continuation.resume(with: decided)
                            return early
                        }
                        LoopIdle.low {
                            let present = fp_device_get_finger_status(device).rawValue & FP_FINGER_STATUS_PRESENT.rawValue != 0
                            guard present else {
                                // The finger is off and the reader keeps the operation open (a
                                // match-on-chip reader finishing its own work, or stuck): the
                                // decision is not held back past a short grace, and nobody needs
                                // the rest of the operation.
                                Task { @GLibLoop in
                                    try? await Task.sleep(for: Self.decidedAnswerGrace)
                                    answerNow()?.cancel()
                                }
                                return
                            }
                            _ = answerNow()
                        }
                    }
                }
                box.keep.append(cancellable)
                let data = Unmanaged.passRetained(box).toOpaque()
                do {
                    try start(device, cancellable.pointer.assumingMemoryBound(to: GCancellable.self), box, data)
                } catch {
                    Unmanaged<OperationBox>.fromOpaque(data).release()
                    status?.stop()
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            Task { @GLibLoop in g_cancellable_cancel(cancellable.pointer.assumingMemoryBound(to: GCancellable.self)) }
        }
    }
}
