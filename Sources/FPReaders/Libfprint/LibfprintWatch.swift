internal import CLibfprint
import FPCore

/// Carries the context's hot-plug signals to a watcher's stream, and disconnects
/// them when the watcher goes; loop thread only.
@GLibLoop
private final class WatchBox {
    let emit: @Sendable (ReaderChange) -> Void
    var handlers: [gulong] = []
    init(_ emit: @escaping @Sendable (ReaderChange) -> Void) { self.emit = emit }

    /// Connects the signals, reports the present readers, and returns the owned box pointer.
    static func connect(_ emit: @escaping @Sendable (ReaderChange) -> Void) -> UnsafeMutableRawPointer? {
        guard let context = LibfprintRuntime.contextPointer else { return nil }
        let box = WatchBox(emit)
        for device in LibfprintRuntime.presentDevices() { emit(.present(device.describe())) }
        let pointer = Unmanaged.passRetained(box).toOpaque()
        box.handlers = [
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
        if let context = LibfprintRuntime.contextPointer {
            for handler in owned.takeUnretainedValue().handlers { g_signal_handler_disconnect(UnsafeMutableRawPointer(context), handler) }
        }
        owned.release()
    }
}

private typealias DeviceSignal = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

private let deviceAdded: DeviceSignal = { _, device, data in
    GLibLoop.assumeIsolated { [device = UInt(bitPattern: device), data = UInt(bitPattern: data)] in
        guard let box = WatchBox.from(data), let device = DevicePointer(bitPattern: device) else { return }
        box.emit(.added(LoopDevice.describe(device)))
    }
}

private let deviceRemoved: DeviceSignal = { _, device, data in
    GLibLoop.assumeIsolated { [device = UInt(bitPattern: device), data = UInt(bitPattern: data)] in
        guard let box = WatchBox.from(data), let device = DevicePointer(bitPattern: device) else { return }
        box.emit(.removed(LoopDevice.describe(device).identity))
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
