internal import CLibfprint
import FPCore
import FPMatching

/// What the host matcher needs of a serialised libfprint print: who made it and, for an
/// NBIS print, its samples' minutiae. Read with GLib's GVariant functions only (no
/// libfprint object), so any thread may decode. Package access: the accuracy benchmark's
/// tool (fpbridge-accuracy) reads serialized prints with it.
package struct NBISTemplate: Sendable {
    /// The driver that made the print (`fp_device_get_driver`).
    package let driver: String
    /// The device id the print was made on (`fp_device_get_device_id`).
    package let deviceID: String
    /// The print's samples, each as libfprint stores it; nil when the print is not an
    /// NBIS print (a raw, match-on-chip print).
    package let samples: [[NBISMinutia]]?

    /// Decodes bytes after ``LibfprintPrint/check(_:)``: a print that fails the check
    /// throws the check's error, so a damaged print is refused here as it is elsewhere.
    package init(_ data: PrintData) throws(ReaderError) {
        self = try LibfprintPrint.withCheckedVariant(data, Self.init(checked:))
    }

    /// Reads a print the check accepted, so `(a(aiaiai))`, equal columns and values within
    /// ``NBISLimits`` are known.
    private init(checked print: OpaquePointer) {
        driver = Self.string(print, 1)
        deviceID = Self.string(print, 2)
        let kind = g_variant_get_child_value(print, 0)!
        defer { g_variant_unref(kind) }
        guard g_variant_get_int32(kind) == LibfprintPrint.nbisKind else {
            samples = nil
            return
        }
        let template = g_variant_get_child_value(print, 9)!
        defer { g_variant_unref(template) }
        let contents = g_variant_get_variant(template)!
        defer { g_variant_unref(contents) }
        let list = g_variant_get_child_value(contents, 0)!
        defer { g_variant_unref(list) }
        samples = (0..<g_variant_n_children(list)).map { index in
            let sample = g_variant_get_child_value(list, index)!
            defer { g_variant_unref(sample) }
            let columns = (0..<3).map { LibfprintPrint.int32s(sample, $0) }
            return (0..<columns[0].count).map { NBISMinutia(x: columns[0][$0], y: columns[1][$0], theta: columns[2][$0]) }
        }
    }

    private static func string(_ tuple: OpaquePointer, _ index: gsize) -> String {
        let child = g_variant_get_child_value(tuple, index)!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }
}
