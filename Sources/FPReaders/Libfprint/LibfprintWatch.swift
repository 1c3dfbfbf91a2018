import CLibfprint
import FPCore

/// Carries the context's hot-plug signals to a watcher's stream; loop thread only.
private final class WatchBox {
    let emit: @Sendable (ReaderChange) -> Void
    var handlers: [gulong] = []
    init(_ emit: @escaping @Sendable (ReaderChange) -> Void) { self.emit = emit }
}

private typealias DeviceSignal = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

private let deviceAdded: DeviceSignal = { _, device, data in
    guard let device, let data else { return }
    let box = Unmanaged<WatchBox>.fromOpaque(data).takeUnretainedValue()
    box.emit(.added(LibfprintReader.describe(device.assumingMemoryBound(to: FpDevice.self))))
}

private let deviceRemoved: DeviceSignal = { _, device, data in
    guard let device, let data else { return }
    let box = Unmanaged<WatchBox>.fromOpaque(data).takeUnretainedValue()
    box.emit(.removed(LibfprintReader.describe(device.assumingMemoryBound(to: FpDevice.self)).identity))
}

extension LibfprintReader {
    /// The readers libfprint sees now, then each one plugged in or pulled out, until
    /// the consumer stops. Hot-plug comes from libfprint's context (GUsb and udev):
    /// without udev (containers, CI) only the present readers are reported.
    public static func watch() -> AsyncStream<ReaderChange> {
        let (stream, continuation) = AsyncStream<ReaderChange>.makeStream()
        let runtime = LibfprintRuntime.shared
        let stop = AsyncStream<Void>.makeStream()
        continuation.onTermination = { _ in stop.continuation.finish() }
        Task {
            let context = await runtime.context()
            let box = await runtime.loop.run { () -> LoopBound<UnsafeMutableRawPointer> in
                let box = WatchBox { continuation.yield($0) }
                if let array = fp_context_get_devices(context.raw) {
                    for index in 0..<Int(array.pointee.len) {
                        guard let item = array.pointee.pdata[index] else { continue }
                        continuation.yield(.present(describe(item.assumingMemoryBound(to: FpDevice.self))))
                    }
                }
                let pointer = Unmanaged.passRetained(box).toOpaque()
                box.handlers = [
                    fpb_signal_connect(UnsafeMutableRawPointer(context.raw), "device-added",
                                       unsafeBitCast(deviceAdded, to: GCallback.self), pointer),
                    fpb_signal_connect(UnsafeMutableRawPointer(context.raw), "device-removed",
                                       unsafeBitCast(deviceRemoved, to: GCallback.self), pointer),
                ]
                return LoopBound(raw: pointer)
            }
            // Parked until the consumer stops; then the handlers go, on the loop thread.
            for await _ in stop.stream {}
            runtime.loop.submit {
                let owned = Unmanaged<WatchBox>.fromOpaque(box.raw)
                for handler in owned.takeUnretainedValue().handlers {
                    g_signal_handler_disconnect(UnsafeMutableRawPointer(context.raw), handler)
                }
                owned.release()
            }
        }
        return stream
    }
}
