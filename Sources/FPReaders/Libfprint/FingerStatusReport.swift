internal import CLibfprint

/// Tells ``FingerStatus``'s listener the device's finger-status flags through one libfprint
/// operation, from its start to its very end (an image reader's answered operation ends at the
/// lift). Changes are told once the loop is idle, as GDBus announces a property: flags set and
/// cleared in one go (virtual_device's scan) are no change. ``flush()`` tells what is pending
/// at once; the operation calls it before it hands back a result, so no change comes after
/// the result it preceded.
@GLibLoop
final class FingerStatusReport {
    private let device: DevicePointer
    private let listener: FingerStatusListener
    private var handler: gulong = 0
    /// The flags as last told (none at the start: a listener starts from nothing needed).
    private var told = (present: false, needed: false)
    private var pending = false
    /// The match was decided (``decide()``): later changes are marked so.
    private var decided = false

    init(device: DevicePointer, listener: FingerStatusListener) {
        self.device = device
        self.listener = listener
    }

    func start() {
        let data = Unmanaged.passUnretained(self).toOpaque()
        handler = fpb_signal_connect(UnsafeMutableRawPointer(device), "notify::finger-status",
                                     unsafeBitCast(statusChanged, to: GCallback.self), data)
        flush()
    }

    /// Tells the flags now if they differ from what was told.
    func flush() {
        pending = false
        let status = fp_device_get_finger_status(device).rawValue
        let now = (present: status & FP_FINGER_STATUS_PRESENT.rawValue != 0, needed: status & FP_FINGER_STATUS_NEEDED.rawValue != 0)
        guard now != told else { return }
        told = now
        listener.onChange(FingerStatusFlags(present: now.present, needed: now.needed, decided: decided))
    }

    /// libfprint decided the match: what is told from now on is marked as after the decision,
    /// changes still pending included. fprintd sends the result from the match callback and its
    /// properties only once the loop is idle, so those come after the result there too.
    func decide() {
        decided = true
    }

    /// The operation ended: what is pending is told, nothing after.
    func stop() {
        guard handler != 0 else { return }
        flush()
        g_signal_handler_disconnect(UnsafeMutableRawPointer(device), handler)
        handler = 0
    }

    fileprivate func changed() {
        guard handler != 0, !pending else { return }
        pending = true
        LoopIdle.low { [self] in if pending && handler != 0 { flush() } }
    }
}

private typealias NotifySignal = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

private let statusChanged: NotifySignal = { _, _, data in
    GLibLoop.assumeIsolated { [data = UInt(bitPattern: data)] in
        guard let pointer = UnsafeRawPointer(bitPattern: data) else { return }
        Unmanaged<FingerStatusReport>.fromOpaque(pointer).takeUnretainedValue().changed()
    }
}
