internal import CLibfprint
import Synchronization

/// Bounds the wait for a finger, and only the wait: once libfprint reports a
/// finger on the sensor (`finger-status` PRESENT), matching runs to its end,
/// however long a large gallery takes. With no finger in time the operation is
/// cancelled and reads as ``ReaderError/timedOut``.
@GLibLoop
final class FingerWait {
    private(set) var fingerSeen = false
    /// Told once, when the finger is first seen (``FingerPresence``).
    private let listener = FingerPresence.listener
    private(set) var timedOut = false
    private var handler: gulong = 0
    private let device: DevicePointer
    /// The clock for this operation, cancelled by ``stop()``: left running, it kept this
    /// object (and the cancellable) alive for the whole timeout, a day if a client asked.
    private var timer: Task<Void, Never>?

    /// How many exist now (tests: none outlives its operation).
    nonisolated static let live = Atomic<Int>(0)

    init(device: DevicePointer) {
        self.device = device
        Self.live.add(1, ordering: .relaxed)
    }

    deinit {
        Self.live.subtract(1, ordering: .relaxed)
    }

    /// Starts watching the finger and the clock for one operation.
    func start(timeout: Duration, cancellable: GObjectRef) {
        noteFingerStatus()
        let data = Unmanaged.passUnretained(self).toOpaque()
        handler = fpb_signal_connect(UnsafeMutableRawPointer(device), "notify::finger-status",
                                     unsafeBitCast(fingerStatusChanged, to: GCallback.self), data)
        timer = Task { @GLibLoop [weak self] in
            try? await Task.sleep(for: timeout)
            guard let self, !Task.isCancelled, !self.fingerSeen, self.handler != 0 else { return }
            self.timedOut = true
            g_cancellable_cancel(cancellable.pointer.assumingMemoryBound(to: GCancellable.self))
        }
    }

    /// Stops watching; the operation is over.
    func stop() {
        if handler != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(device), handler) }
        handler = 0
        timer?.cancel()
        timer = nil
    }

    fileprivate func noteFingerStatus() {
        guard !fingerSeen, fp_device_get_finger_status(device).rawValue & FP_FINGER_STATUS_PRESENT.rawValue != 0 else { return }
        fingerSeen = true
        listener?.onFinger()
    }
}

private typealias NotifySignal = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

private let fingerStatusChanged: NotifySignal = { _, _, data in
    GLibLoop.assumeIsolated { [data = UInt(bitPattern: data)] in
        guard let pointer = UnsafeRawPointer(bitPattern: data) else { return }
        Unmanaged<FingerWait>.fromOpaque(pointer).takeUnretainedValue().noteFingerStatus()
    }
}
