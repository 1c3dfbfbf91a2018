import CLibfprint
import FPCore

/// Moving prints between libfprint's `FpPrint` and serialised bytes.
/// Call only on the loop thread.
enum LibfprintPrint {
    /// The shortest serialised print libfprint accepts. Shorter input trips an
    /// assertion inside `fp_print_deserialize` that aborts the whole process.
    static let minimumLength = 4

    /// A new `FpPrint` (owned by the caller) from serialised bytes, checked to belong to `device`.
    static func deserialize(_ data: PrintData, for device: DevicePointer) throws -> OpaquePointer {
        guard data.bytes.count >= minimumLength else {
            throw ReaderError.invalidPrint("only \(data.bytes.count) bytes, too short to be a print")
        }
        var error: UnsafeMutablePointer<GError>?
        let print = data.bytes.withUnsafeBufferPointer { buffer in
            fp_print_deserialize(buffer.baseAddress, gsize(buffer.count), &error)
        }
        guard let print else {
            throw ReaderError.invalidPrint(LibfprintError.takeError(error).description)
        }
        guard fp_print_compatible(print, device) != 0 else {
            g_object_unref(UnsafeMutableRawPointer(print))
            throw ReaderError.invalidPrint("the print was made by another reader")
        }
        return print
    }

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

    static func finger(of print: OpaquePointer) -> Finger? {
        Finger(libfprintValue: Int32(fp_print_get_finger(print).rawValue))
    }

    static func string(_ pointer: UnsafePointer<gchar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
