internal import CLibfprint
import FPCore

/// One libfprint device, owned on the loop thread: the only holder of its
/// `FpDevice` pointer. However many ``LibfprintReader``s wrap it, the device is
/// opened by the first `open` and closed by the last `close`, so that dropping one
/// wrapper never closes a reader another one is using.
@GLibLoop
final class LoopDevice {
    private let object: GObjectRef
    private var openCount = 0
    private var opening: Task<Void, any Error>?

    init(_ object: GObjectRef) {
        self.object = object
    }

    var pointer: DevicePointer { object.pointer.assumingMemoryBound(to: FpDevice.self) }

    func open() async throws {
        if let opening {
            try await opening.value
        } else if openCount == 0 {
            let task = Task { @GLibLoop in try await self.openDevice() }
            opening = task
            defer { opening = nil }
            try await task.value
        }
        openCount += 1
    }

    func close() async throws {
        guard openCount > 0 else { return }
        openCount -= 1
        if openCount == 0 { try await closeDevice() }
    }

    private func openDevice() async throws {
        try await perform { device, cancellable, _, data in
            fp_device_open(device, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard fp_device_open_finish(device, result, &error) != 0 else { throw LibfprintError.takeError(error) }
        }
    }

    private func closeDevice() async throws {
        try await perform { device, cancellable, _, data in
            fp_device_close(device, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard fp_device_close_finish(device, result, &error) != 0 else {
                let failure = LibfprintError.takeError(error)
                // A removed reader reports REMOVED even on close; it is closed all the same.
                if failure != .removed { throw failure }
                return
            }
        }
    }

    /// What the device says about itself.
    func describe() -> ReaderInfo {
        Self.describe(pointer)
    }

    /// What a device says about itself, from a borrowed pointer (signal handlers).
    static func describe(_ device: DevicePointer) -> ReaderInfo {
        let temperature: ReaderTemperature = switch fp_device_get_temperature(device) {
        case FP_TEMPERATURE_HOT: .hot
        case FP_TEMPERATURE_WARM: .warm
        default: .cold
        }
        return ReaderInfo(
            identity: ReaderIdentity(driver: LibfprintPrint.string(fp_device_get_driver(device)) ?? "unknown",
                                     deviceID: LibfprintPrint.string(fp_device_get_device_id(device)) ?? "0"),
            name: LibfprintPrint.string(fp_device_get_name(device)) ?? "unnamed reader",
            scanType: fp_device_get_scan_type(device) == FP_SCAN_TYPE_SWIPE ? .swipe : .press,
            enrollStages: Int(fp_device_get_nr_enroll_stages(device)),
            features: ReaderFeatures(rawValue: fp_device_get_features(device).rawValue),
            temperature: temperature)
    }
}
