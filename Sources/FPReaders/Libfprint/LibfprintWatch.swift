internal import CLibfprint
import FPCore

/// Carries hot-plug to a watcher's stream, and disconnects its signal handlers when the
/// watcher goes; loop thread only.
///
/// libfprint's context announces a reader pulled out only once nobody has it open; an open
/// reader announces it itself (its `removed` signal). Both are followed, and each reader is
/// reported gone once, when it is pulled out.
@GLibLoop
private final class WatchBox {
    let emit: @Sendable (ReaderChange) -> Void
    private var pointer: UnsafeMutableRawPointer?
    private var contextHandlers: [gulong] = []
    private var deviceHandlers: [(device: DevicePointer, handler: gulong)] = []
    private var reportedGone: Set<DevicePointer> = []

    init(_ emit: @escaping @Sendable (ReaderChange) -> Void) { self.emit = emit }

    /// Connects the signals, reports the present readers, and returns the owned box pointer.
    static func connect(_ emit: @escaping @Sendable (ReaderChange) -> Void) -> UnsafeMutableRawPointer? {
        guard let context = LibfprintRuntime.contextPointer else { return nil }
        let box = WatchBox(emit)
        let pointer = Unmanaged.passRetained(box).toOpaque()
        box.pointer = pointer
        for device in LibfprintRuntime.presentDevices() {
            box.follow(device.pointer)
            emit(.present(device.describe()))
        }
        box.contextHandlers = [
            fpb_signal_connect(UnsafeMutableRawPointer(context), "device-added", unsafeBitCast(deviceAdded, to: GCallback.self), pointer),
            fpb_signal_connect(UnsafeMutableRawPointer(context), "device-removed", unsafeBitCast(deviceRemoved, to: GCallback.self), pointer),
        ]
        return pointer
    }

    /// The box a signal handler was given, by address.
    static func from(_ address: UInt) -> WatchBox? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged<WatchBox>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Disconnects what ``connect(_:)`` connected and releases the box.
    static func disconnect(_ pointer: UnsafeMutableRawPointer) {
        let owned = Unmanaged<WatchBox>.fromOpaque(pointer)
        let box = owned.takeUnretainedValue()
        if let context = LibfprintRuntime.contextPointer {
            for handler in box.contextHandlers { g_signal_handler_disconnect(UnsafeMutableRawPointer(context), handler) }
        }
        // Each device left here is one libfprint still lists, and so holds: the handlers of
        // devices it dropped went with them (``letGo(_:)``).
        for (device, handler) in box.deviceHandlers { g_signal_handler_disconnect(UnsafeMutableRawPointer(device), handler) }
        owned.release()
    }

    /// Listens for the reader being pulled out while open, and for its driver changing its
    /// stage count or scan type (a reader's own, or the virtual readers' SET_ENROLL_STAGES).
    func follow(_ device: DevicePointer) {
        guard let pointer else { return }
        let raw = UnsafeMutableRawPointer(device)
        deviceHandlers.append((device, fpb_signal_connect(raw, "removed", unsafeBitCast(deviceUnplugged, to: GCallback.self), pointer)))
        for property in ["notify::nr-enroll-stages", "notify::scan-type"] {
            deviceHandlers.append((device, fpb_signal_connect(raw, property, unsafeBitCast(deviceChanged, to: GCallback.self), pointer)))
        }
    }

    func changed(_ device: DevicePointer) {
        guard !reportedGone.contains(device) else { return }
        emit(.changed(LoopDevice.describe(device)))
    }

    func added(_ device: DevicePointer) {
        follow(device)
        emit(.added(LoopDevice.describe(device)))
    }

    func gone(_ device: DevicePointer) {
        guard reportedGone.insert(device).inserted else { return }
        emit(.removed(LoopDevice.describe(device).identity))
    }

    /// libfprint drops the device once this signal returns (and may free it, then reuse the
    /// address): its handler goes now.
    func letGo(_ device: DevicePointer) {
        for entry in deviceHandlers where entry.device == device {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(device), entry.handler)
        }
        deviceHandlers.removeAll { $0.device == device }
        reportedGone.remove(device)
    }
}

private typealias ContextSignal = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
private typealias DeviceSignal = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

private let deviceAdded: ContextSignal = { _, device, data in
    GLibLoop.assumeIsolated { [device = UInt(bitPattern: device), data = UInt(bitPattern: data)] in
        guard let box = WatchBox.from(data), let device = DevicePointer(bitPattern: device) else { return }
        box.added(device)
    }
}

private let deviceRemoved: ContextSignal = { _, device, data in
    GLibLoop.assumeIsolated { [device = UInt(bitPattern: device), data = UInt(bitPattern: data)] in
        guard let box = WatchBox.from(data), let device = DevicePointer(bitPattern: device) else { return }
        box.gone(device)
        box.letGo(device)
    }
}

/// GObject's `notify` (the device, the property's spec, the data).
private let deviceChanged: ContextSignal = { device, _, data in
    GLibLoop.assumeIsolated { [device = UInt(bitPattern: device), data = UInt(bitPattern: data)] in
        guard let box = WatchBox.from(data), let device = DevicePointer(bitPattern: device) else { return }
        box.changed(device)
    }
}

private let deviceUnplugged: DeviceSignal = { device, data in
    GLibLoop.assumeIsolated { [device = UInt(bitPattern: device), data = UInt(bitPattern: data)] in
        guard let box = WatchBox.from(data), let device = DevicePointer(bitPattern: device) else { return }
        box.gone(device)
    }
}

extension LibfprintReader {
    /// The readers libfprint sees now, then each one plugged in or pulled out, until
    /// the consumer stops. Hot-plug comes from libfprint's context (GUsb and udev):
    /// without udev (containers, CI) only the present readers are reported.
    public static func watch() -> AsyncStream<ReaderChange> {
        let (stream, continuation) = AsyncStream<ReaderChange>.makeStream()
        let stop = AsyncStream<Void>.makeStream()
        continuation.onTermination = { _ in stop.continuation.finish() }
        Task { @GLibLoop in
            guard let box = WatchBox.connect({ continuation.yield($0) }) else { return continuation.finish() }
            // Parked until the consumer stops; then the handlers go, here on the loop.
            for await _ in stop.stream {}
            WatchBox.disconnect(box)
        }
        return stream
    }
}
