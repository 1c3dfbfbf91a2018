import FPCore

/// A fingerprint reader: libfprint's readers and the fake reader implement it alike.
///
/// One reader serves one operation at a time; a second concurrent operation
/// fails at once with ``ReaderError/busy``. Every operation honours Swift task
/// cancellation and then fails with ``ReaderError/cancelled``.
public protocol FingerprintReader: AnyObject, Sendable {
    /// What the reader says about itself. Refreshed by ``open()``, since some
    /// readers only know their enroll stage count once opened.
    var info: ReaderInfo { get async }

    /// Opens the reader for use. Must precede every other operation.
    func open() async throws
    /// Closes the reader. Safe to call on a reader that has been removed.
    func close() async throws

    /// Enrolls a new print, reporting each accepted scan and each retry.
    /// The stream ends with ``EnrollEvent/enrolled(_:)`` or an error.
    func enroll(_ template: PrintTemplate) -> AsyncThrowingStream<EnrollEvent, any Error>

    /// Waits for a finger and returns the raw image (image readers only).
    func capture() async throws -> CapturedImage

    /// Lists the prints kept on the sensor (match-on-chip readers only).
    func listStoredPrints() async throws -> [DeviceStoredPrint]
    /// Deletes one print from the sensor's storage.
    func deleteStoredPrint(_ print: PrintData) async throws
    /// Wipes the sensor's storage.
    func clearStorage() async throws
}

/// Matching a finger against stored prints: the engine's alone.
///
/// Not public: a match that skipped the engine would skip its attempt counters and
/// lockout, so downstream code reaches matching only through an evaluation.
package protocol PrintMatching: FingerprintReader {
    /// Scans once and compares the finger with one enrolled print, answering as soon as the
    /// match is decided (a finger still on the sensor is not waited for). `fingerTimeout`
    /// bounds the wait for the scan; once the reader has it, matching runs to its end however
    /// long it takes. No scan in time: ``ReaderError/timedOut``.
    func verify(_ print: PrintData, fingerTimeout: Duration) async throws -> MatchOutcome
    /// Scans once and looks the finger up among several enrolled prints; timeout as for verify.
    func identify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> MatchOutcome
    /// Scans once and scores the finger against every print of `gallery` where fpbridge
    /// compares (image readers), for a 1:N decision of the engine's own; elsewhere the reader's
    /// own identify decides (``IdentificationScan/decided(_:)``). Timeout as for verify.
    func scoreIdentify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> IdentificationScan
    /// What the last ``identify(_:fingerTimeout:)`` that read a finger cost in comparisons;
    /// nil when the reader does not say (it matches on the chip).
    var lastIdentification: IdentificationCost? { get async }
    /// Enrolls as ``FingerprintReader/enroll(_:)`` does, refusing a finger that matches a print
    /// of `gallery`, as identify would decide: the stream then fails with ``DuplicateScan``
    /// before any stage of the finger is reported. Image readers compared on the host tell at
    /// the enrollment's first scan; readers that ``ReaderInfo/identifiesBeforeEnrolling`` take
    /// a scan of their own first, reported as the first of ``ReaderInfo/enrollmentStages``
    /// (the reader's stages follow, each counted one on). There a finger the sensor holds under
    /// a print of its own that is in no print of `gallery` is deleted from the sensor and the
    /// enrollment goes on when `deletingSensorOrphans`, else refused (``DuplicateScan`` without
    /// an index). A reader that can do neither enrolls as usual.
    func enroll(_ template: PrintTemplate, refusing gallery: [PrintData],
                deletingSensorOrphans: Bool) -> AsyncThrowingStream<EnrollEvent, any Error>
}

extension PrintMatching {
    package var lastIdentification: IdentificationCost? { get async { nil } }

    package func scoreIdentify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> IdentificationScan {
        .decided(try await identify(gallery, fingerTimeout: fingerTimeout))
    }

    package func enroll(_ template: PrintTemplate, refusing gallery: [PrintData],
                        deletingSensorOrphans: Bool) -> AsyncThrowingStream<EnrollEvent, any Error> {
        enroll(template)
    }
}
