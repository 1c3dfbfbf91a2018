import CLibfprint

/// Serialised libfprint NBIS prints with chosen minutiae, as someone with write access to the
/// state could plant them (issue 36, finding 4): the header of a real print, its samples
/// replaced. Built with GLib's own GVariant constructors, so the bytes are in the normal form
/// libfprint reads; what they hold is whatever the test asks for.
public enum CraftedPrint {
    /// One minutia as stored: column, row from the bottom, angle in degrees.
    public typealias Minutia = (x: Int32, y: Int32, theta: Int32)

    /// `print` (a serialised NBIS print, `FP3` and its variant) with its samples replaced by
    /// `samples`; nil when `print` is not one.
    public static func replacingSamples(of print: [UInt8], with samples: [[Minutia]]) -> [UInt8]? {
        let magic = Array("FP3".utf8)
        guard print.starts(with: magic) else { return nil }
        let type = g_variant_type_new("(issbymsmsia{sv}v)")
        defer { g_variant_type_free(type) }
        let body = Array(print.dropFirst(magic.count))
        let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let original = g_variant_ref_sink(g_variant_new_from_bytes(type, bytes, 0)),
              g_variant_is_normal_form(original) != 0 else { return nil }
        defer { g_variant_unref(original) }
        var fields: [OpaquePointer?] = (0..<9).map { g_variant_get_child_value(original, gsize($0)) }
        fields.append(g_variant_new_variant(template(samples)))
        let crafted = g_variant_ref_sink(fields.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 10) })!
        defer { g_variant_unref(crafted) }
        for field in fields.prefix(9) { g_variant_unref(field) }
        let size = Int(g_variant_get_size(crafted))
        let data = g_variant_get_data(crafted)!.assumingMemoryBound(to: UInt8.self)
        return magic + Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// `(a(aiaiai))`: the samples, each three columns of equal length.
    private static func template(_ samples: [[Minutia]]) -> OpaquePointer {
        let int32 = g_variant_type_new("i")
        defer { g_variant_type_free(int32) }
        let sampleType = g_variant_type_new("(aiaiai)")
        defer { g_variant_type_free(sampleType) }
        let tuples: [OpaquePointer?] = samples.map { sample in
            let columns: [OpaquePointer?] = [sample.map(\.x), sample.map(\.y), sample.map(\.theta)].map { column in
                column.withUnsafeBufferPointer { g_variant_new_fixed_array(int32, $0.baseAddress, gsize($0.count), 4) }
            }
            return columns.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 3) }
        }
        let list = tuples.withUnsafeBufferPointer { g_variant_new_array(sampleType, $0.baseAddress, gsize($0.count)) }
        return [list].withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }!
    }
}
