internal import CLibfprint
import Synchronization

/// Bounds the wait for a scan, and only the wait: once the reader has the finger's scan
/// (libfprint clears `finger-status` NEEDED after it asked for the finger), matching runs to
/// its end, however long a large gallery takes. A finger that is on the sensor is not yet a
/// scan: one that stays there while nothing is decided (the reader never captures it) still
/// times out. With no scan in time the operation is cancelled and reads as ``ReaderError/timedOut``.
@GLibLoop
final class FingerWait {
    private(set) var fingerSeen = false
    /// The reader asked for the finger (NEEDED) during this operation.
    private var fingerNeeded = false
    /// The reader asked for the finger and no longer needs it: it has the scan.
    private(set) var scanTaken = false
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
        // Real time, not an injected clock (issue 41 §5 asked): this bounds a real reader's wait
        // for a real finger, and every test of it drives libfprint's virtual devices, which
        // scan in real time; the engine's own timeouts, which tests do move, are on its clock.
        timer = Task { @GLibLoop [weak self] in
            try? await Task.sleep(for: timeout)
            guard let self, !Task.isCancelled, !self.scanTaken, self.handler != 0 else { return }
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
        let status = fp_device_get_finger_status(device).rawValue
        if status & FP_FINGER_STATUS_NEEDED.rawValue != 0 {
            fingerNeeded = true
        } else if fingerNeeded {
            scanTaken = true
        }
        guard !fingerSeen, status & FP_FINGER_STATUS_PRESENT.rawValue != 0 else { return }
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
