import FPCore
import Synchronization

/// A reader driven by libfprint: USB and SPI sensors, and libfprint's virtual readers.
///
/// A thin handle: the device itself belongs to a `LoopDevice` on the GLib loop
/// thread, and every call hops there. Each handle opens and closes the device for
/// itself; the device closes when the last handle that opened it closes or goes.
public final class LibfprintReader: PrintMatching {
    private let device: LoopDevice
    private let opened = Mutex(false)

    init(device: LoopDevice) {
        self.device = device
    }

    deinit {
        guard opened.withLock({ $0 }) else { return }
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

    /// Opens the reader for this handle.
    /// - Throws: `ReaderError`: `permissionDenied`, `removed`, `busy`, `alreadyOpen`, or a driver failure.
    public func open() async throws {
        guard !opened.withLock({ $0 }) else { throw ReaderError.alreadyOpen }
        try await device.open()
        opened.withLock { $0 = true }
    }

    /// Closes this handle's use of the reader; the device closes with the last handle.
    public func close() async throws {
        guard opened.withLock({ state in defer { state = false }; return state }) else { return }
        try await device.close()
    }

    /// Enrolls through libfprint, reporting each stage and retry.
    public func enroll(_ template: PrintTemplate) -> AsyncThrowingStream<EnrollEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task { [device] in
                do {
                    let print = try await device.enroll(template) { continuation.yield($0) }
                    continuation.yield(.enrolled(print))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    package func verify(_ print: PrintData, fingerTimeout: Duration) async throws -> MatchOutcome {
        try await device.verify(print, fingerTimeout: fingerTimeout)
    }

    package func identify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> MatchOutcome {
        try await device.identify(gallery, fingerTimeout: fingerTimeout)
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
