internal import CLibfprint

/// Carries one operation's completion from libfprint's finish callback back to
/// the task awaiting it, and keeps the operation's GObjects alive until then.
@GLibLoop
final class OperationBox {
    let complete: (OpaquePointer) -> Void
    /// Prints and galleries the running operation reads; released with the box, on the loop.
    var keep: [GObjectRef] = []

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

extension LoopDevice {
    /// Runs one asynchronous libfprint operation.
    ///
    /// `start` calls the libfprint function with the cancellable and, as callback
    /// data, the box pointer; it may throw to fail before starting. `finish` runs in
    /// the finish callback. Task cancellation cancels the operation's `GCancellable`
    /// on the loop thread, where libfprint's cancel handler expects to run.
    ///
    /// With `fingerTimeout`, the operation ends with ``ReaderError/timedOut`` when no
    /// finger arrives in time (see ``FingerWait``).
    ///
    /// `scans`: the operation heats the reader in libfprint's thermal model (enroll, verify,
    /// identify, capture), so its time is followed as scanning time, and a "too hot" says
    /// how long the reader now has to rest.
    func perform<T: Sendable>(
        fingerTimeout: Duration? = nil,
        scans: Bool = false,
        start: (DevicePointer, UnsafeMutablePointer<GCancellable>, OperationBox, gpointer) throws -> Void,
        finish: @escaping (DevicePointer, OpaquePointer) throws -> T
    ) async throws -> T {
        guard scans else { return try await perform(fingerTimeout: fingerTimeout, start: start, finish: finish) }
        heat.set(scanning: true)
        defer { heat.set(scanning: false) }
        do {
            return try await perform(fingerTimeout: fingerTimeout, start: start, finish: finish)
        } catch ReaderError.tooHot {
            // libfprint's own model holds it as hot: its rest is known. A driver that reports
            // TOO_HOT by itself (the sensor's own sensing) leaves the wait unknown.
            let heat = currentHeat()
            throw ReaderError.tooHot(usableInSeconds: heat.hot ? heat.usableInSeconds : nil)
        }
    }

    private func perform<T: Sendable>(
        fingerTimeout: Duration?,
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
            return try await run(cancellable: cancellable, start: start, finish: finish)
        } catch ReaderError.cancelled where wait?.timedOut == true {
            throw ReaderError.timedOut
        }
    }

    private func run<T: Sendable>(
        cancellable: GObjectRef,
        start: (DevicePointer, UnsafeMutablePointer<GCancellable>, OperationBox, gpointer) throws -> Void,
        finish: @escaping (DevicePointer, OpaquePointer) throws -> T
    ) async throws -> T {
        let device = pointer
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let box = OperationBox { result in
                    continuation.resume(with: Result { try finish(device, result) })
                }
                box.keep.append(cancellable)
                let data = Unmanaged.passRetained(box).toOpaque()
                do {
                    try start(device, cancellable.pointer.assumingMemoryBound(to: GCancellable.self), box, data)
                } catch {
                    Unmanaged<OperationBox>.fromOpaque(data).release()
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            Task { @GLibLoop in g_cancellable_cancel(cancellable.pointer.assumingMemoryBound(to: GCancellable.self)) }
        }
    }
}
