import CLibfprint

/// Carries one operation's completion from libfprint's finish callback back
/// to the task awaiting it. Also keeps the operation's GObjects (prints,
/// galleries) alive until then, and drops them on the loop thread.
final class OperationBox {
    let complete: (OpaquePointer) -> Void
    var held: [gpointer] = []

    init(_ complete: @escaping (OpaquePointer) -> Void) {
        self.complete = complete
    }

    /// Keeps a GObject (or GPtrArray, with `array: true`) until the operation ends.
    func hold(_ object: gpointer, array: Bool = false) {
        held.append(object)
        if array { arrays.insert(object) }
    }

    private var arrays = Set<gpointer>()

    func release() {
        for object in held {
            if arrays.contains(object) {
                g_ptr_array_unref(object.assumingMemoryBound(to: GPtrArray.self))
            } else {
                g_object_unref(object)
            }
        }
        held.removeAll()
    }
}

/// The `GAsyncReadyCallback` every operation finishes through.
let operationFinished: GAsyncReadyCallback = { _, result, data in
    let box = Unmanaged<OperationBox>.fromOpaque(data!).takeRetainedValue()
    box.complete(result!)
    box.release()
}

extension LibfprintRuntime {
    /// Runs one asynchronous libfprint operation on the loop thread.
    ///
    /// `start` calls the libfprint function with the cancellable and, as
    /// callback data, the box pointer; it may throw to fail before starting.
    /// `finish` runs in the finish callback, on the loop thread. Task
    /// cancellation cancels the operation's `GCancellable`.
    func perform<T: Sendable>(
        on device: LoopBound<DevicePointer>,
        start: @escaping @Sendable (DevicePointer, UnsafeMutablePointer<GCancellable>, OperationBox, gpointer) throws -> Void,
        finish: @escaping @Sendable (DevicePointer, OpaquePointer) throws -> T
    ) async throws -> T {
        let cancellable = LoopBound(raw: g_cancellable_new()!)
        defer { g_object_unref(cancellable.raw) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                loop.submit {
                    let box = OperationBox { result in
                        continuation.resume(with: Result { try finish(device.raw, result) })
                    }
                    let userData = Unmanaged.passRetained(box).toOpaque()
                    do {
                        try start(device.raw, cancellable.raw, box, userData)
                    } catch {
                        Unmanaged<OperationBox>.fromOpaque(userData).release()
                        box.release()
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            g_cancellable_cancel(cancellable.raw)
        }
    }
}
