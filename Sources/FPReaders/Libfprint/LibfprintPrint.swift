import CLibfprint
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
    /// (`g_error` from `g_variant_get_child_value`; libfprint.md, gotcha 8). GLib
    /// itself reads untrusted GVariant data safely and tells whether it is in
    /// normal form, which is the form libfprint can read without tripping.
    /// Pure GLib (no GObject, no device): callable from any thread.
    static func check(_ data: PrintData) throws(ReaderError) {
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
    }

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
