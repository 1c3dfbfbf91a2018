import FPCore
import FPMatching

/// A reader driven by libfprint: USB and SPI sensors, and libfprint's virtual readers.
///
/// A thin handle: the device itself belongs to a `LoopDevice` on the GLib loop
/// thread, and every call hops there. Each handle opens and closes the device for
/// itself; the device closes when the last handle that opened it closes or goes.
public final class LibfprintReader: PrintMatching {
    private let device: LoopDevice

    /// This handle's share of the device: an `open` and a `close` that overlap wait for each
    /// other, and a second `open` of an open handle is refused, so that the device's count of
    /// holders is never off (two opens counted, one close taken back).
    private enum HandleState {
        case closed
        case opening(Task<Void, any Error>)
        case open
        case closing(Task<Void, any Error>)
    }
    private let state = Locked(HandleState.closed)

    init(device: LoopDevice) {
        self.device = device
    }

    deinit {
        let held = state.withLock { state -> Bool in
            switch state {
            case .open, .opening: true
            case .closed, .closing: false
            }
        }
        guard held else { return }
        // Close before dropping the last reference, as libfprint asks; only this handle's share.
        Task { [device] in try? await device.close() }
    }

    /// Every reader libfprint can see now.
    public static func all() async -> [LibfprintReader] {
        await LibfprintRuntime.presentDevices().map { LibfprintReader(device: $0) }
    }

    /// What libfprint says about the reader.
    public var info: ReaderInfo {
        get async { await device.describe() }
    }

    /// Whether libfprint has the device open now, through any handle (tests).
    package var isOpenInLibfprint: Bool {
        get async { await device.isOpenInLibfprint }
    }

    /// How many handles hold the device open now, this one included (tests).
    package var openHolders: Int {
        get async { await device.openHolders }
    }

    private enum Step {
        case wait(Task<Void, any Error>)
        case run(Task<Void, any Error>)
        case refuse
        case done
    }

    /// Opens the reader for this handle; waits for a close of it in progress first.
    /// - Throws: `ReaderError`: `permissionDenied`, `removed`, `busy`, `alreadyOpen` (this
    ///   handle is open or opening), or a driver failure.
    public func open() async throws {
        while true {
            let step = state.withLock { state -> Step in
                switch state {
                case .open, .opening: return .refuse
                case .closing(let task): return .wait(task)
                case .closed:
                    // The task leaves the state it ends in, so whoever waits on it finds it set.
                    let task = Task { [device, self] in
                        do {
                            try await device.open()
                            self.state.withLock { $0 = .open }
                        } catch {
                            self.state.withLock { $0 = .closed }
                            throw error
                        }
                    }
                    state = .opening(task)
                    return .run(task)
                }
            }
            switch step {
            case .refuse: throw ReaderError.alreadyOpen
            case .wait(let task): _ = try? await task.value
            case .run(let task): return try await task.value
            case .done: return
            }
        }
    }

    /// Closes this handle's use of the reader (after an open of it in progress); the device
    /// closes with the last handle.
    public func close() async throws {
        while true {
            let step = state.withLock { state -> Step in
                switch state {
                case .closed: return .done
                case .opening(let task), .closing(let task): return .wait(task)
                case .open:
                    let task = Task { [device, self] in
                        defer { self.state.withLock { $0 = .closed } }
                        try await device.close()
                    }
                    state = .closing(task)
                    return .run(task)
                }
            }
            switch step {
            case .done, .refuse: return
            case .wait(let task): _ = try? await task.value
            case .run(let task): return try await task.value
            }
        }
    }

    /// Enrolls through libfprint, reporting each stage and retry.
    public func enroll(_ template: PrintTemplate) -> AsyncThrowingStream<EnrollEvent, any Error> {
        Self.enrollment { [device] in try await Self.plain(device, template, into: $0) }
    }

    /// On image readers that match on the host, the first accepted scan is compared with
    /// `gallery` as identify compares (``LoopDevice/firstMatch(scan:plan:)``) before its stage is
    /// reported; a match ends the enrollment with ``DuplicateScan``. On readers that
    /// ``ReaderInfo/identifiesBeforeEnrolling``, an identification first (fprintd's check).
    /// Elsewhere a plain enrollment.
    package func enroll(_ template: PrintTemplate, refusing gallery: [PrintData],
                        deletingSensorOrphans: Bool) -> AsyncThrowingStream<EnrollEvent, any Error> {
        Self.enrollment { [device] continuation in
            if let plan = try await device.hostPlan(for: gallery) {
                try await Self.screened(device, template, plan: plan, into: continuation)
            } else if await device.describe().identifiesBeforeEnrolling {
                try await Self.identifiedFirst(device, template, gallery: gallery, deletingSensorOrphans: deletingSensorOrphans,
                                               into: continuation)
            } else {
                try await Self.plain(device, template, into: continuation)
            }
        }
    }

    /// fprintd's order on a reader that identifies on the chip: one scan identified among
    /// `gallery` (scanned again on a retry), reported as the first stage once it found nothing,
    /// then the reader's own enrollment, its stages counted one on.
    private static func identifiedFirst(_ device: LoopDevice, _ template: PrintTemplate, gallery: [PrintData],
                                        deletingSensorOrphans: Bool,
                                        into continuation: AsyncThrowingStream<EnrollEvent, any Error>.Continuation) async throws {
        checking: while true {
            switch try await device.identifyBeforeEnrolling(gallery) {
            case .retry(let reason): continuation.yield(.retry(reason))
            case .duplicate(let index): throw DuplicateScan(galleryIndex: index)
            case .clear: break checking
            case .sensorOrphan(let print):
                guard deletingSensorOrphans else { throw DuplicateScan(galleryIndex: nil) }
                // As fprintd: the sensor's copy of a print nobody here knows gives way. One that
                // cannot be deleted keeps the finger (the sensor would refuse it as a duplicate).
                do { try await device.deleteStoredPrint(print) } catch { throw DuplicateScan(galleryIndex: nil) }
                break checking
            }
        }
        let stages = await device.describe().enrollmentStages
        continuation.yield(.stageCompleted(completed: 1, total: stages))
        let print = try await enrollMakingRoom(device, template, known: gallery, deletingSensorOrphans: deletingSensorOrphans) { event, _ in
            if case .stageCompleted(let completed, let total) = event {
                continuation.yield(.stageCompleted(completed: completed + 1, total: total + 1))
            } else {
                continuation.yield(event)
            }
        }
        continuation.yield(.enrolled(print))
    }

    /// The reader's enrollment. A sensor that reports its storage full, and can list it, gives
    /// up one of its prints that no print of `known` is (fprintd's upkeep: an earlier
    /// installation's), and the enrollment starts again, its stages counted from the first
    /// again; storage full stands when there is none, or it cannot be deleted. Only with
    /// `deletingSensorOrphans` (every record of the reader was read: a damaged one may be
    /// any of those prints).
    private static func enrollMakingRoom(_ device: LoopDevice, _ template: PrintTemplate, known: [PrintData],
                                         deletingSensorOrphans: Bool,
                                         emit: @escaping @Sendable (EnrollEvent, PrintData?) -> Void) async throws -> EnrolledPrint {
        var givenUp: [PrintData] = []
        while true {
            do {
                return try await device.enroll(template, emit: emit)
            } catch ReaderError.storageFull {
                guard deletingSensorOrphans, await device.describe().features.contains(.storageList) else { throw ReaderError.storageFull }
                do {
                    // A print given up already and listed again: the sensor did not delete it, and
                    // asking again would never end.
                    guard let spare = try await device.storedPrintsNobodyKnows(known).first, !givenUp.contains(spare) else {
                        throw ReaderError.storageFull
                    }
                    try await device.deleteStoredPrint(spare)
                    givenUp.append(spare)
                } catch let error as ReaderError where [.cancelled, .removed].contains(error) {
                    throw error
                } catch is CancellationError {
                    throw ReaderError.cancelled
                } catch {
                    // Listing or deleting failed: the sensor is full, as it said.
                    throw ReaderError.storageFull
                }
            }
        }
    }

    /// An enrollment's stream, run by `body` and cancelled when its reader goes.
    private static func enrollment(
        _ body: @escaping @Sendable (AsyncThrowingStream<EnrollEvent, any Error>.Continuation) async throws -> Void
    ) -> AsyncThrowingStream<EnrollEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await body(continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func plain(_ device: LoopDevice, _ template: PrintTemplate,
                              into continuation: AsyncThrowingStream<EnrollEvent, any Error>.Continuation) async throws {
        let print = try await device.enroll(template) { event, _ in continuation.yield(event) }
        continuation.yield(.enrolled(print))
    }

    /// One enrollment whose events pass through in order, the first stage only once its scan
    /// was found in no print of `plan`.
    private static func screened(_ device: LoopDevice, _ template: PrintTemplate, plan: HostPlan,
                                 into continuation: AsyncThrowingStream<EnrollEvent, any Error>.Continuation) async throws {
        let (events, feed) = AsyncStream.makeStream(of: Result<(EnrollEvent, PrintData?), any Error>.self)
        let enrolling = Task {
            do {
                let print = try await device.enroll(template, keepingFirstScan: true) { feed.yield(.success(($0, $1))) }
                feed.yield(.success((.enrolled(print), nil)))
            } catch {
                feed.yield(.failure(error))
            }
            feed.finish()
        }
        // Whatever ends this (a duplicate, a failure, the caller's cancel), the enrollment is over
        // in libfprint before the stream ends: the next operation must not find the reader busy.
        defer { enrolling.cancel() }
        try await withTaskCancellationHandler {
            for await item in events {
                let (event, scan) = try item.get()
                if case .stageCompleted(1, _) = event {
                    guard let scan else { throw ReaderError.general("the reader gave no print of the first scan to compare") }
                    if let index = try await device.firstMatch(scan: scan, plan: plan).index {
                        enrolling.cancel()
                        _ = await enrolling.result
                        throw DuplicateScan(galleryIndex: index)
                    }
                }
                continuation.yield(event)
            }
            if Task.isCancelled { throw ReaderError.cancelled }
        } onCancel: {
            enrolling.cancel()
        }
        _ = await enrolling.result
    }

    package func verify(_ print: PrintData, fingerTimeout: Duration) async throws -> MatchOutcome {
        try await device.verify(print, fingerTimeout: fingerTimeout)
    }

    package var lastIdentification: IdentificationCost? {
        get async { await device.lastIdentification }
    }

    package func identify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> MatchOutcome {
        try await device.identify(gallery, fingerTimeout: fingerTimeout)
    }

    package func scoreIdentify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> IdentificationScan {
        try await device.scoreIdentify(gallery, fingerTimeout: fingerTimeout)
    }

    /// Captures one image (image readers only).
    /// - Throws: `ReaderError.notSupported` on other readers, or the reader's failure.
    public func capture() async throws -> CapturedImage {
        try await device.capture()
    }

    /// Lists the prints on the sensor (match-on-chip readers only).
    /// - Throws: `ReaderError.notSupported` on other readers.
    public func listStoredPrints() async throws -> [DeviceStoredPrint] {
        try await device.listStoredPrints()
    }

    /// Deletes one print from the sensor.
    /// - Throws: `ReaderError.printNotFound`, `ReaderError.notSupported`.
    public func deleteStoredPrint(_ print: PrintData) async throws {
        try await device.deleteStoredPrint(print)
    }

    /// Wipes the sensor's storage.
    /// - Throws: `ReaderError.notSupported` on readers without it.
    public func clearStorage() async throws {
        try await device.clearStorage()
    }
}
