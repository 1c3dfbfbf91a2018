internal import CLibfprint
import FPCore

/// What the identification before an enrollment found (``LoopDevice/identifyBeforeEnrolling(_:)``).
enum EnrollmentCheck: Sendable {
    /// The finger matched the gallery's print at this index: enrolled already.
    case duplicate(galleryIndex: Int)
    /// The finger is in no print of the gallery, nor on the sensor.
    case clear
    /// The sensor holds the finger under a print of its own that is in no print of the gallery
    /// (left by an earlier installation, or by a record lost since).
    case sensorOrphan(PrintData)
    /// The scan could not be used; the reader asks for another.
    case retry(RetryReason)
}

extension LoopDevice {
    /// Scans once and identifies the finger among `gallery` with the reader's own identify, as
    /// fprintd begins an enrollment on a reader that can identify: the duplicate check of readers
    /// whose scans fpbridge does not compare (match-on-chip). No timeout of its own: the
    /// enrollment's stage timeout ends it by cancelling. A reader that says the print is not
    /// found (libfprint's DATA_NOT_FOUND) found nothing, as fprintd reads it.
    func identifyBeforeEnrolling(_ gallery: [PrintData]) async throws -> EnrollmentCheck {
        let prints = GalleryPrints()
        do {
            return try await perform(scans: true) { device, cancellable, box, data in
                fp_device_identify(device, try prints.load(gallery, for: device, keptBy: box), cancellable,
                                   nil, nil, nil, operationFinished, data)
            } finish: { device, result in
                var matched: OpaquePointer?
                var found: OpaquePointer?
                var error: UnsafeMutablePointer<GError>?
                let ok = fp_device_identify_finish(device, result, &matched, &found, &error)
                defer {
                    if let found { g_object_unref(UnsafeMutableRawPointer(found)) }
                    if let matched { g_object_unref(UnsafeMutableRawPointer(matched)) }
                }
                guard ok != 0 else {
                    if case .retry(let reason) = try LibfprintError.outcome(failure: error) { return .retry(reason) }
                    throw ReaderError.general("the reader failed the identification without saying why")
                }
                if let matched { return .duplicate(galleryIndex: try prints.index(of: matched)) }
                // A found print equal to one of the gallery's is that record's, whatever the driver
                // said of the match (libfprint drops a match that is not the gallery's own object):
                // never an orphan to delete.
                if let found, let index = try? prints.index(of: found) { return .duplicate(galleryIndex: index) }
                // Only a print the sensor keeps is its own; another reader's scan is just the scan.
                if let found, fp_print_get_device_stored(found) != 0 {
                    return .sensorOrphan(try LibfprintPrint.serialize(found))
                }
                return .clear
            }
        } catch ReaderError.printNotFound {
            return .clear
        }
    }
}
