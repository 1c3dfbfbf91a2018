internal import CLibfprint

typealias DevicePointer = UnsafeMutablePointer<FpDevice>

/// The process's one libfprint context and the devices it found, living on the
/// GLib loop thread. The executor creates the context and enumerates before any
/// other work runs (see ``GLibExecutor``).
@GLibLoop
enum LibfprintRuntime {
    private static var context: GObjectRef?
    /// One ``LoopDevice`` per `FpDevice`, however many readers wrap it.
    private static var devices: [UnsafeMutableRawPointer: LoopDevice] = [:]

    /// Called once by the loop thread before it accepts work.
    static func start() {
        guard context == nil, let created = fp_context_new() else { return }
        fp_context_enumerate(created)
        context = GObjectRef(taking: UnsafeMutableRawPointer(created))
        // libfprint drops a reader pulled out (once it is closed); so does the table below, or a
        // service running for months would keep every reader ever plugged in alive.
        _ = fpb_signal_connect(UnsafeMutableRawPointer(created), "device-removed",
                               unsafeBitCast(forgetDevice, to: GCallback.self), nil)
    }

    /// Drops the wrapper of a device libfprint no longer lists; handles still holding it keep it.
    static func forget(_ pointer: UnsafeMutableRawPointer) {
        devices[pointer] = nil
    }

    /// Whether a wrapper of a reader with this identity is in the table (tests).
    static func tracks(_ identity: ReaderIdentity) -> Bool {
        devices.values.contains { $0.describe().identity == identity }
    }

    /// The context; nil only if libfprint could not create one.
    static var contextPointer: UnsafeMutablePointer<FpContext>? {
        context?.pointer.assumingMemoryBound(to: FpContext.self)
    }

    /// Every reader libfprint sees now. One pulled out while open stays in libfprint's list
    /// until it is closed; it is not offered.
    static func presentDevices() -> [LoopDevice] {
        guard let context = contextPointer, let array = fp_context_get_devices(context) else { return [] }
        return (0..<Int(array.pointee.len)).compactMap { index in
            guard let item = array.pointee.pdata[index], fpb_device_is_removed(item) == 0 else { return nil }
            return device(for: item)
        }
    }

    /// The one wrapper of a borrowed `FpDevice` pointer.
    static func device(for pointer: UnsafeMutableRawPointer) -> LoopDevice {
        if let known = devices[pointer] { return known }
        let device = LoopDevice(GObjectRef(retaining: pointer))
        devices[pointer] = device
        return device
    }
}

private let forgetDevice: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, device, _ in
    GLibLoop.assumeIsolated { [device = UInt(bitPattern: device)] in
        guard let pointer = UnsafeMutableRawPointer(bitPattern: device) else { return }
        LibfprintRuntime.forget(pointer)
    }
}
