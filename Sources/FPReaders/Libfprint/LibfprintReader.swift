import CLibfprint
import FPCore
import Synchronization

/// A reader driven by libfprint: USB and SPI sensors, and libfprint's virtual readers.
///
/// Every call is routed to the GLib loop thread (see ``GLibMainLoop``);
/// results come back to the caller's task.
public final class LibfprintReader: FingerprintReader {
    private let runtime: LibfprintRuntime
    private let device: LoopBound<DevicePointer>
    private let snapshot: Mutex<ReaderInfo>

    init(runtime: LibfprintRuntime, device: LoopBound<DevicePointer>) async {
        self.runtime = runtime
        self.device = device
        snapshot = Mutex(await runtime.loop.run { Self.describe(device.raw) })
    }

    deinit {
        let device = device
        runtime.loop.submit {
            // Close before dropping the last reference, as libfprint asks.
            if fp_device_is_open(device.raw) != 0 {
                fp_device_close(device.raw, nil, nil, nil)
            }
            g_object_unref(device.raw)
        }
    }

    /// Every reader libfprint can see now.
    public static func all() async -> [LibfprintReader] {
        let runtime = LibfprintRuntime.shared
        var readers: [LibfprintReader] = []
        for device in await runtime.devices() {
            readers.append(await LibfprintReader(runtime: runtime, device: device))
        }
        return readers
    }

    public var info: ReaderInfo {
        get async {
            let device = device
            let fresh = await runtime.loop.run { Self.describe(device.raw) }
            snapshot.withLock { $0 = fresh }
            return fresh
        }
    }

    public func open() async throws {
        try await runtime.perform(on: device) { device, cancellable, _, data in
            fp_device_open(device, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard fp_device_open_finish(device, result, &error) != 0 else {
                throw LibfprintError.takeError(error)
            }
        }
    }

    public func close() async throws {
        try await runtime.perform(on: device) { device, cancellable, _, data in
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

    public func enroll(_ template: PrintTemplate) -> AsyncThrowingStream<EnrollEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let print = try await self.runEnroll(template) { continuation.yield($0) }
                    continuation.yield(.enrolled(print))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func runEnroll(_ template: PrintTemplate,
                           emit: @escaping @Sendable (EnrollEvent) -> Void) async throws -> EnrolledPrint {
        try await runtime.perform(on: device) { device, cancellable, box, data in
            let print = g_object_ref_sink(UnsafeMutableRawPointer(fp_print_new(device)))!
            box.hold(print)
            let printPointer = OpaquePointer(print)
            if let finger = template.finger {
                fp_print_set_finger(printPointer, FpFinger(UInt32(finger.libfprintValue)))
            }
            if let username = template.username {
                fp_print_set_username(printPointer, username)
            }
            let progress = Unmanaged.passRetained(EnrollProgressBox(emit)).toOpaque()
            fp_device_enroll(device, printPointer, cancellable, enrollProgress, progress,
                             { Unmanaged<EnrollProgressBox>.fromOpaque($0!).release() },
                             operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard let print = fp_device_enroll_finish(device, result, &error) else {
                throw LibfprintError.takeError(error)
            }
            defer { g_object_unref(UnsafeMutableRawPointer(print)) }
            return EnrolledPrint(data: try LibfprintPrint.serialize(print),
                                 storedOnDevice: fp_print_get_device_stored(print) != 0)
        }
    }

    public func verify(_ print: PrintData) async throws -> MatchOutcome {
        try await runtime.perform(on: device) { device, cancellable, box, data in
            let enrolled = try LibfprintPrint.deserialize(print, for: device)
            box.hold(UnsafeMutableRawPointer(enrolled))
            fp_device_verify(device, enrolled, cancellable, nil, nil, nil, operationFinished, data)
        } finish: { device, result in
            var matched: gboolean = 0
            var scanned: OpaquePointer?
            var error: UnsafeMutablePointer<GError>?
            let ok = fp_device_verify_finish(device, result, &matched, &scanned, &error)
            if let scanned { g_object_unref(UnsafeMutableRawPointer(scanned)) }
            guard ok != 0 else { return try Self.outcome(failure: error) }
            return matched != 0 ? .match(galleryIndex: 0) : .noMatch
        }
    }

    public func identify(_ gallery: [PrintData]) async throws -> MatchOutcome {
        let prints = LoopBoundList()
        return try await runtime.perform(on: device) { device, cancellable, box, data in
            let array = g_ptr_array_new_with_free_func(g_object_unref)!
            box.hold(UnsafeMutableRawPointer(array), array: true)
            for item in gallery {
                let print = try LibfprintPrint.deserialize(item, for: device)
                g_ptr_array_add(array, UnsafeMutableRawPointer(print))
                prints.items.append(print)
            }
            fp_device_identify(device, array, cancellable, nil, nil, nil, operationFinished, data)
        } finish: { device, result in
            var matched: OpaquePointer?
            var scanned: OpaquePointer?
            var error: UnsafeMutablePointer<GError>?
            let ok = fp_device_identify_finish(device, result, &matched, &scanned, &error)
            if let scanned { g_object_unref(UnsafeMutableRawPointer(scanned)) }
            guard ok != 0 else { return try Self.outcome(failure: error) }
            guard let matched else { return .noMatch }
            defer { g_object_unref(UnsafeMutableRawPointer(matched)) }
            let index = prints.items.firstIndex { fp_print_equal($0, matched) != 0 }
            guard let index else {
                throw ReaderError.general("the reader matched a print that is not in the gallery")
            }
            return .match(galleryIndex: index)
        }
    }

    public func capture() async throws -> CapturedImage {
        try await runtime.perform(on: device) { device, cancellable, _, data in
            fp_device_capture(device, 1, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard let image = fp_device_capture_finish(device, result, &error) else {
                throw LibfprintError.takeError(error)
            }
            defer { g_object_unref(UnsafeMutableRawPointer(image)) }
            let width = Int(fp_image_get_width(image))
            let height = Int(fp_image_get_height(image))
            var length: gsize = 0
            guard let pixels = fp_image_get_data(image, &length), Int(length) == width * height else {
                throw ReaderError.general("the reader returned an image of \(length) bytes for \(width)x\(height) pixels")
            }
            return CapturedImage(width: width, height: height,
                                 pixels: Array(UnsafeBufferPointer(start: pixels, count: Int(length))))
        }
    }

    public func listStoredPrints() async throws -> [DeviceStoredPrint] {
        try await runtime.perform(on: device) { device, cancellable, _, data in
            fp_device_list_prints(device, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard let array = fp_device_list_prints_finish(device, result, &error) else {
                throw LibfprintError.takeError(error)
            }
            defer { g_ptr_array_unref(array) }
            return try (0..<Int(array.pointee.len)).map { index in
                let print = OpaquePointer(array.pointee.pdata[index]!)
                return DeviceStoredPrint(data: try LibfprintPrint.serialize(print),
                                         finger: LibfprintPrint.finger(of: print),
                                         username: LibfprintPrint.string(fp_print_get_username(print)),
                                         description: LibfprintPrint.string(fp_print_get_description(print)))
            }
        }
    }

    public func deleteStoredPrint(_ print: PrintData) async throws {
        try await runtime.perform(on: device) { device, cancellable, box, data in
            let stored = try LibfprintPrint.deserialize(print, for: device)
            box.hold(UnsafeMutableRawPointer(stored))
            fp_device_delete_print(device, stored, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard fp_device_delete_print_finish(device, result, &error) != 0 else {
                throw LibfprintError.takeError(error)
            }
        }
    }

    public func clearStorage() async throws {
        try await runtime.perform(on: device) { device, cancellable, _, data in
            fp_device_clear_storage(device, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard fp_device_clear_storage_finish(device, result, &error) != 0 else {
                throw LibfprintError.takeError(error)
            }
        }
    }

    /// A failed verify or identify: a retry request is an outcome, anything else an error.
    private static func outcome(failure error: UnsafeMutablePointer<GError>?) throws -> MatchOutcome {
        switch LibfprintError.take(error) {
        case .retry(let reason): return .retry(reason)
        case .error(let readerError): throw readerError
        }
    }

    /// What the device says about itself; loop thread only.
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

/// Forwards enrollment progress from libfprint's callback to the enroll stream.
private final class EnrollProgressBox {
    let emit: @Sendable (EnrollEvent) -> Void
    init(_ emit: @escaping @Sendable (EnrollEvent) -> Void) { self.emit = emit }
}

private let enrollProgress: FpEnrollProgress = { device, completed, _, data, error in
    let box = Unmanaged<EnrollProgressBox>.fromOpaque(data!).takeUnretainedValue()
    if let error {
        // libfprint keeps ownership of callback errors; a retry lets enrollment continue.
        switch LibfprintError.convert(error) {
        case .retry(let reason): box.emit(.retry(reason))
        case .error: break
        }
        return
    }
    let total = Int(fp_device_get_nr_enroll_stages(device))
    box.emit(.stageCompleted(completed: Int(completed), total: total))
}

/// The gallery of an identify, in order; touched only on the loop thread.
/// The prints are owned by the GPtrArray the operation holds.
private final class LoopBoundList: @unchecked Sendable {
    var items: [OpaquePointer] = []
}
