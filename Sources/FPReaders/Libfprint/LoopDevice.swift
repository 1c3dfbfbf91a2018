internal import CLibfprint
import FPCore

/// One libfprint device, owned on the loop thread: the only holder of its
/// `FpDevice` pointer. However many ``LibfprintReader``s wrap it, the device is
/// opened by the first `open` and closed by the last `close`, so that dropping one
/// wrapper never closes a reader another one is using.
@GLibLoop
final class LoopDevice {
    private let object: GObjectRef

    /// Where the device is between closed and open. `open` and `close` wait out a change in
    /// progress instead of starting another: libfprint refuses to open a device that is still
    /// closing ("already open") and must not be closed while it opens.
    private enum Phase {
        case closed
        case opening(Task<Void, any Error>)
        case open
        case closing(Task<Void, any Error>)
    }
    private var phase = Phase.closed
    /// Handles that opened the device and have not closed it.
    private var holders = 0
    /// The heat of libfprint's thermal model, estimated (libfprint tells only cold, warm, hot).
    var heat = HeatFollower()
    /// What the last identification that read a finger cost (``LibfprintReader/lastIdentification``).
    var lastIdentification: IdentificationCost?
    /// The operation that answered from its match callback and waits for the finger to lift;
    /// the next operation starts after it (``LingeringOperation``).
    var lingering: LingeringOperation?

    init(_ object: GObjectRef) {
        self.object = object
    }

    var pointer: DevicePointer { object.pointer.assumingMemoryBound(to: FpDevice.self) }

    /// Whether libfprint has the device open now (tests).
    var isOpenInLibfprint: Bool { fp_device_is_open(pointer) != 0 }

    /// Handles holding the device open now (tests: a dropped handle's close has run).
    var openHolders: Int { holders }

    func open() async throws {
        while true {
            switch phase {
            case .open:
                holders += 1
                return
            case .closing(let task):
                // Its outcome is the closer's to report; this open starts once it is over.
                _ = try? await task.value
            case .opening(let task):
                // Whoever resumes first finds the phase the opening left (open or closed).
                try await task.value
            case .closed:
                let task = Task { @GLibLoop in
                    do {
                        try await self.openDevice()
                        self.phase = .open
                    } catch {
                        self.phase = .closed
                        throw error
                    }
                }
                phase = .opening(task)
                try await task.value
            }
        }
    }

    func close() async throws {
        while case .opening(let task) = phase { _ = try? await task.value }
        guard case .open = phase, holders > 0 else { return }
        holders -= 1
        guard holders == 0 else { return }
        let task = Task { @GLibLoop in
            defer { self.phase = .closed }
            try await self.closeDevice()
        }
        phase = .closing(task)
        try await task.value
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
        // An operation cancelled just before (a Release during an enrollment) may still be ending
        // in libfprint, which refuses a close meanwhile as busy and leaves the device open: the
        // close waits for it, up to 2 s. Real time, as FingerWait's: libfprint's own work.
        var attempts = 0
        while true {
            do {
                return try await closeOnce()
            } catch ReaderError.busy where attempts < 40 {
                attempts += 1
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private func closeOnce() async throws {
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

    /// What the device says about itself, with the heat followed since it was found.
    func describe() -> ReaderInfo {
        heat.agree(with: Self.temperature(pointer))
        return Self.describe(pointer, heat: heat.current())
    }

    /// The heat now, in line with what libfprint reports.
    func currentHeat() -> ReaderHeat {
        heat.agree(with: Self.temperature(pointer))
        return heat.current()
    }

    private static func temperature(_ device: DevicePointer) -> ReaderTemperature {
        switch fp_device_get_temperature(device) {
        case FP_TEMPERATURE_HOT: .hot
        case FP_TEMPERATURE_WARM: .warm
        default: .cold
        }
    }

    /// What a device says about itself, from a borrowed pointer (signal handlers, where only
    /// libfprint's cold, warm or hot is known of its heat).
    static func describe(_ device: DevicePointer, heat known: ReaderHeat? = nil) -> ReaderInfo {
        let temperature = temperature(device)
        let features = ReaderFeatures(rawValue: fp_device_get_features(device).rawValue)
        // Readers that may scan without end (match-on-chip) have no thermal model.
        let heat = features.contains(.alwaysOn) ? nil : known ?? ReaderHeat(reported: temperature)
        let driver = LibfprintPrint.string(fp_device_get_driver(device)) ?? "unknown"
        return ReaderInfo(
            identity: ReaderIdentity(driver: driver, deviceID: LibfprintPrint.string(fp_device_get_device_id(device)) ?? "0"),
            name: LibfprintPrint.string(fp_device_get_name(device)) ?? "unnamed reader",
            scanType: fp_device_get_scan_type(device) == FP_SCAN_TYPE_SWIPE ? .swipe : .press,
            enrollStages: Int(fp_device_get_nr_enroll_stages(device)),
            features: features,
            temperature: temperature,
            heat: heat,
            identifiesBeforeEnrolling: identifiesBeforeEnrolling(driver: driver, features: features))
    }

    /// fprintd's duplicate check, where fpbridge cannot screen the enrollment's first scan
    /// itself: a reader that identifies and whose prints the host does not compare.
    static func identifiesBeforeEnrolling(driver: String, features: ReaderFeatures) -> Bool {
        features.contains(.identify) && HostMatchingDrivers.threshold(forDriver: driver) == nil
    }
}
