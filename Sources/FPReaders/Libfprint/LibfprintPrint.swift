internal import CLibfprint
import FPCore

/// Moving prints between libfprint's `FpPrint` and serialised bytes: on the loop
/// thread, except ``check(_:)``, which only reads GVariant data (thread-safe GLib).
enum LibfprintPrint {
    /// The shortest serialised print libfprint accepts. Shorter input trips an
    /// assertion inside `fp_print_deserialize` that aborts the whole process.
    static let minimumLength = 4

    /// What `fp_print_serialize` writes first.
    static let magic = Array("FP3".utf8)
    /// The GVariant type of the serialised print after the magic (libfprint 1.94's `fp-print.c`).
    static let variantType = "(issbymsmsia{sv}v)"

    /// Checks serialised bytes before libfprint may read them. `fp_print_deserialize`
    /// trusts its input: a damaged print aborts the whole process inside GLib
    /// (`g_error` from `g_variant_get_child_value`; docs/libfprint-facts.md §2). GLib
    /// itself reads untrusted GVariant data safely and tells whether it is in
    /// normal form, which is the form libfprint can read without tripping.
    /// Pure GLib (no GObject, no device): callable from any thread.
    static func check(_ data: PrintData) throws(ReaderError) {
        try withCheckedVariant(data) { _ in }
    }

    /// Checks `data` as ``check(_:)`` does and hands `read` the print's GVariant, borrowed
    /// for the call: a reader of the print's fields (the host matcher) parses it once.
    static func withCheckedVariant<T>(_ data: PrintData, _ read: (OpaquePointer) -> T) throws(ReaderError) -> T {
        guard data.bytes.count >= minimumLength else {
            throw .invalidPrint("only \(data.bytes.count) bytes, too short to be a print")
        }
        guard data.bytes.starts(with: magic) else {
            throw .invalidPrint("it does not start with libfprint's FP3 header")
        }
        let type = g_variant_type_new(variantType)
        defer { g_variant_type_free(type) }
        let body = data.bytes.dropFirst(magic.count).withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(body) }
        let variant = g_variant_ref_sink(g_variant_new_from_bytes(type, body, 0))
        defer { g_variant_unref(variant) }
        guard g_variant_is_normal_form(variant) != 0 else {
            throw .invalidPrint("its contents are damaged (not a well-formed libfprint print)")
        }
        try checkContents(of: variant!)
        return read(variant!)
    }

    /// libfprint reads the template inside the print by position, trusting its type:
    /// a raw print must hold a variant, an NBIS print `(a(aiaiai))` with equal columns.
    /// Found by fuzzing: a well-formed print whose template had another type still aborted
    /// the process. An NBIS print must also hold only what libfprint can make
    /// (``NBISLimits``): bozorth3 would spend hours on some of the rest.
    private static func checkContents(of print: OpaquePointer) throws(ReaderError) {
        let kind = g_variant_get_child_value(print, 0)!
        defer { g_variant_unref(kind) }
        let template = g_variant_get_child_value(print, 9)!
        defer { g_variant_unref(template) }
        let contents = g_variant_get_variant(template)!
        defer { g_variant_unref(contents) }
        let contentType = String(cString: g_variant_get_type_string(contents))
        switch g_variant_get_int32(kind) {
        case rawKind:
            guard contentType == "v" else { throw .invalidPrint("its raw template has the wrong type (\(contentType))") }
        case nbisKind:
            guard contentType == "(a(aiaiai))" else { throw .invalidPrint("its minutiae have the wrong type (\(contentType))") }
            let samples = g_variant_get_child_value(contents, 0)!
            defer { g_variant_unref(samples) }
            let sampleCount = Int(g_variant_n_children(samples))
            guard sampleCount <= NBISLimits.maximumSamples else {
                throw .invalidPrint("it holds \(sampleCount) samples (libfprint enrolls at most \(NBISLimits.maximumSamples))")
            }
            for index in 0..<sampleCount {
                let sample = g_variant_get_child_value(samples, gsize(index))!
                defer { g_variant_unref(sample) }
                let columns = (0..<3).map { int32s(sample, $0) }
                guard columns[1].count == columns[0].count, columns[2].count == columns[0].count else {
                    throw .invalidPrint("its minutiae are damaged (\(columns.map(\.count)) values in a sample)")
                }
                if let problem = NBISLimits.problem(x: columns[0], y: columns[1], theta: columns[2]) {
                    throw .invalidPrint("sample \(index + 1) cannot come from libfprint: \(problem)")
                }
            }
        default:
            throw .invalidPrint("it is of an unknown kind (\(g_variant_get_int32(kind)))")
        }
    }

    /// The int32 array at `index` of `tuple`, copied (an `ai` column of a checked print).
    static func int32s(_ tuple: OpaquePointer, _ index: gsize) -> [Int32] {
        let child = g_variant_get_child_value(tuple, index)!
        defer { g_variant_unref(child) }
        var count: gsize = 0
        guard let values = g_variant_get_fixed_array(child, &count, gsize(MemoryLayout<Int32>.size)) else { return [] }
        return Array(UnsafeBufferPointer(start: values.assumingMemoryBound(to: Int32.self), count: Int(count)))
    }

    /// libfprint's `FpiPrintType` values that a stored print may have.
    private static let rawKind: Int32 = 1
    static let nbisKind: Int32 = 2

    /// A new `FpPrint` (owned by the caller) from serialised bytes, checked to belong to `device`.
    @GLibLoop
    static func deserialize(_ data: PrintData, for device: DevicePointer) throws -> OpaquePointer {
        let print = try decode(data)
        guard fp_print_compatible(print, device) != 0 else {
            g_object_unref(UnsafeMutableRawPointer(print))
            throw ReaderError.invalidPrint("the print was made by another reader")
        }
        return print
    }

    /// A new `FpPrint` (owned by the caller) from bytes that passed ``check(_:)``; loop thread only.
    @GLibLoop
    static func decode(_ data: PrintData) throws -> OpaquePointer {
        try check(data)
        var error: UnsafeMutablePointer<GError>?
        let print = data.bytes.withUnsafeBufferPointer { buffer in
            fp_print_deserialize(buffer.baseAddress, gsize(buffer.count), &error)
        }
        guard let print else {
            throw ReaderError.invalidPrint(LibfprintError.takeError(error).description)
        }
        return print
    }

    @GLibLoop
    static func serialize(_ print: OpaquePointer) throws -> PrintData {
        var bytes: UnsafeMutablePointer<guchar>?
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard fp_print_serialize(print, &bytes, &length, &error) != 0, let bytes else {
            throw LibfprintError.takeError(error)
        }
        defer { g_free(bytes) }
        return PrintData(bytes: Array(UnsafeBufferPointer(start: bytes, count: Int(length))))
    }

    @GLibLoop
    static func finger(of print: OpaquePointer) -> Finger? {
        Finger(libfprintValue: Int32(fp_print_get_finger(print).rawValue))
    }

    static func string(_ pointer: UnsafePointer<gchar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
