internal import CLibfprint
import FPCore

/// The reader operations, each one libfprint call on the loop thread.
extension LoopDevice {
    /// `emit` gets each stage and retry; with `keepingFirstScan`, the first accepted stage comes
    /// with the print libfprint made of that scan (image readers: its minutiae), else nil.
    func enroll(_ template: PrintTemplate, keepingFirstScan: Bool = false,
                emit: @escaping @Sendable (EnrollEvent, PrintData?) -> Void) async throws -> EnrolledPrint {
        try await perform(scans: true) { device, cancellable, box, data in
            let print = GObjectRef(taking: g_object_ref_sink(UnsafeMutableRawPointer(fp_print_new(device)))!)
            box.keep.append(print)
            let printPointer = OpaquePointer(print.pointer)
            if let finger = template.finger {
                fp_print_set_finger(printPointer, FpFinger(UInt32(finger.libfprintValue)))
            }
            if let username = template.username {
                fp_print_set_username(printPointer, username)
            }
            let progress = Unmanaged.passRetained(EnrollProgressBox(emit, keepingFirstScan: keepingFirstScan)).toOpaque()
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

    func verify(_ print: PrintData, fingerTimeout: Duration) async throws -> MatchOutcome {
        try await perform(fingerTimeout: fingerTimeout, scans: true, decision: { match, _, error in
            if let error { return try Self.retry(error) }
            return match != nil ? .match(galleryIndex: 0) : .noMatch
        }) { device, cancellable, box, data in
            let enrolled = GObjectRef(taking: UnsafeMutableRawPointer(try LibfprintPrint.deserialize(print, for: device)))
            box.keep.append(enrolled)
            fp_device_verify(device, OpaquePointer(enrolled.pointer), cancellable, matchDecided, data, nil, operationFinished, data)
        } finish: { device, result in
            var matched: gboolean = 0
            var scanned: OpaquePointer?
            var error: UnsafeMutablePointer<GError>?
            let ok = fp_device_verify_finish(device, result, &matched, &scanned, &error)
            if let scanned { g_object_unref(UnsafeMutableRawPointer(scanned)) }
            guard ok != 0 else { return try LibfprintError.outcome(failure: error) }
            return matched != 0 ? .match(galleryIndex: 0) : .noMatch
        }
    }

    /// A retry error given to the match callback (libfprint keeps it): the scan could not be used.
    private static func retry(_ error: UnsafeMutablePointer<GError>) throws -> MatchOutcome {
        switch LibfprintError.convert(error) {
        case .retry(let reason): .retry(reason)
        case .error(let failure): throw failure
        }
    }

    /// libfprint's own identify: the reader (match on chip) or libfprint's bozorth3 compares.
    /// `keepingScan`: also return the print libfprint made of the scan (the probe's minutiae
    /// on image readers) when nothing matched.
    func identifyInLibfprint(_ gallery: [PrintData], fingerTimeout: Duration,
                             keepingScan: Bool = false) async throws -> (outcome: MatchOutcome, scan: PrintData?) {
        let prints = GalleryPrints()
        return try await perform(fingerTimeout: fingerTimeout, scans: true, decision: { match, scan, error in
            if let error { return (try Self.retry(error), nil) }
            guard let match else {
                return (.noMatch, try scan.flatMap { keepingScan ? try LibfprintPrint.serialize($0) : nil })
            }
            return (.match(galleryIndex: try prints.index(of: match)), nil)
        }) { device, cancellable, box, data in
            fp_device_identify(device, try prints.load(gallery, for: device, keptBy: box), cancellable,
                               matchDecided, data, nil, operationFinished, data)
        } finish: { device, result in
            var matched: OpaquePointer?
            var scanned: OpaquePointer?
            var error: UnsafeMutablePointer<GError>?
            let ok = fp_device_identify_finish(device, result, &matched, &scanned, &error)
            defer {
                if let scanned { g_object_unref(UnsafeMutableRawPointer(scanned)) }
                if let matched { g_object_unref(UnsafeMutableRawPointer(matched)) }
            }
            guard ok != 0 else { return (try LibfprintError.outcome(failure: error), nil) }
            guard let matched else {
                return (.noMatch, try scanned.flatMap { keepingScan ? try LibfprintPrint.serialize($0) : nil })
            }
            return (.match(galleryIndex: try prints.index(of: matched)), nil)
        }
    }

    func capture() async throws -> CapturedImage {
        try await perform(scans: true) { device, cancellable, _, data in
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

    func listStoredPrints() async throws -> [DeviceStoredPrint] {
        try await withStoredPrints { _, prints in
            try prints.map { print in
                DeviceStoredPrint(data: try LibfprintPrint.serialize(print),
                                  finger: LibfprintPrint.finger(of: print),
                                  username: LibfprintPrint.string(fp_print_get_username(print)),
                                  description: LibfprintPrint.string(fp_print_get_description(print)))
            }
        }
    }

    /// Lists the sensor's prints once and reads them with `read`, in the finish callback (the
    /// prints are libfprint's, borrowed for the call).
    func withStoredPrints<T: Sendable>(_ read: @escaping (DevicePointer, [OpaquePointer]) throws -> T) async throws -> T {
        try await perform { device, cancellable, _, data in
            fp_device_list_prints(device, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard let array = fp_device_list_prints_finish(device, result, &error) else {
                throw LibfprintError.takeError(error)
            }
            defer { g_ptr_array_unref(array) }
            return try read(device, (0..<Int(array.pointee.len)).map { OpaquePointer(array.pointee.pdata[$0]!) })
        }
    }

    func deleteStoredPrint(_ print: PrintData) async throws {
        try await perform { device, cancellable, box, data in
            let stored = GObjectRef(taking: UnsafeMutableRawPointer(try LibfprintPrint.deserialize(print, for: device)))
            box.keep.append(stored)
            fp_device_delete_print(device, OpaquePointer(stored.pointer), cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard fp_device_delete_print_finish(device, result, &error) != 0 else {
                throw LibfprintError.takeError(error)
            }
        }
    }

    func clearStorage() async throws {
        try await perform { device, cancellable, _, data in
            fp_device_clear_storage(device, cancellable, operationFinished, data)
        } finish: { device, result in
            var error: UnsafeMutablePointer<GError>?
            guard fp_device_clear_storage_finish(device, result, &error) != 0 else {
                throw LibfprintError.takeError(error)
            }
        }
    }
}

/// The prints of one identification, in gallery order (owned by the operation's GPtrArray).
@GLibLoop
final class GalleryPrints {
    private var items: [OpaquePointer] = []

    /// The gallery as libfprint takes it, in an array the operation keeps until it ends.
    func load(_ gallery: [PrintData], for device: DevicePointer, keptBy box: OperationBox) throws -> UnsafeMutablePointer<GPtrArray> {
        let array = GObjectRef(taking: UnsafeMutableRawPointer(g_ptr_array_new_with_free_func(g_object_unref)!), kind: .pointerArray)
        box.keep.append(array)
        let pointer = array.pointer.assumingMemoryBound(to: GPtrArray.self)
        for item in gallery {
            let print = try LibfprintPrint.deserialize(item, for: device)
            g_ptr_array_add(pointer, UnsafeMutableRawPointer(print))
            items.append(print)
        }
        return pointer
    }

    /// Where the matched print stands in the gallery.
    func index(of matched: OpaquePointer) throws -> Int {
        guard let index = items.firstIndex(where: { fp_print_equal($0, matched) != 0 }) else {
            throw ReaderError.general("the reader matched a print that is not in the gallery")
        }
        return index
    }
}

/// Forwards enrollment progress from libfprint's callback to the enroll stream.
private final class EnrollProgressBox {
    let emit: @Sendable (EnrollEvent, PrintData?) -> Void
    let keepingFirstScan: Bool
    init(_ emit: @escaping @Sendable (EnrollEvent, PrintData?) -> Void, keepingFirstScan: Bool) {
        self.emit = emit
        self.keepingFirstScan = keepingFirstScan
    }
}

private let enrollProgress: FpEnrollProgress = { device, completed, scan, data, error in
    GLibLoop.assumeIsolated { [device = UInt(bitPattern: device), data = UInt(bitPattern: data), error = UInt(bitPattern: error),
                               scan = UInt(bitPattern: scan)] in
        let box = Unmanaged<EnrollProgressBox>.fromOpaque(UnsafeRawPointer(bitPattern: data)!).takeUnretainedValue()
        if let error = UnsafeMutablePointer<GError>(bitPattern: error) {
            // libfprint keeps ownership of callback errors; a retry lets enrollment continue.
            if case .retry(let reason) = LibfprintError.convert(error) { box.emit(.retry(reason), nil) }
            return
        }
        let stages = Int(fp_device_get_nr_enroll_stages(DevicePointer(bitPattern: device)))
        // The scan's print is libfprint's (borrowed): serialised here, while it lives. One that
        // cannot be serialised goes on as none, and whoever needed it refuses the enrollment.
        let first = box.keepingFirstScan && completed == 1
            ? OpaquePointer(bitPattern: scan).flatMap { try? LibfprintPrint.serialize($0) } : nil
        box.emit(.stageCompleted(completed: Int(completed), total: stages), first)
    }
}
