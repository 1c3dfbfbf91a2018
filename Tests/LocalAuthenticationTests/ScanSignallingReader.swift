import FPReaders
import TestSupport

/// The in-process `virtual_device`, signalling each scan the engine starts, so that a
/// finger is played only once a scan waits for it: virtual_device drops a touch that is
/// queued while the reader is opened or closed (an evaluation that never scans, such as
/// the passcode unlock of a locked-out user, still opens and closes the reader).
final class ScanSignallingReader: PrintMatching {
    private let base: any PrintMatching
    private let scans: PromptSignal

    init(_ base: any PrintMatching, scans: PromptSignal) {
        self.base = base
        self.scans = scans
    }

    var info: ReaderInfo { get async { await base.info } }
    func open() async throws { try await base.open() }
    func close() async throws { try await base.close() }
    func enroll(_ template: PrintTemplate) -> AsyncThrowingStream<EnrollEvent, any Error> {
        scans.signal()
        return base.enroll(template)
    }
    func capture() async throws -> CapturedImage { try await base.capture() }
    func listStoredPrints() async throws -> [DeviceStoredPrint] { try await base.listStoredPrints() }
    func deleteStoredPrint(_ print: PrintData) async throws { try await base.deleteStoredPrint(print) }
    func clearStorage() async throws { try await base.clearStorage() }

    func verify(_ print: PrintData, fingerTimeout: Duration) async throws -> MatchOutcome {
        scans.signal()
        return try await base.verify(print, fingerTimeout: fingerTimeout)
    }

    func identify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> MatchOutcome {
        scans.signal()
        return try await base.identify(gallery, fingerTimeout: fingerTimeout)
    }
}
