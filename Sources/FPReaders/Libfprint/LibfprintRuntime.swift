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
