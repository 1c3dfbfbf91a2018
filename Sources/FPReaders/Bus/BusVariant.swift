internal import CLibfprint
import FoundationEssentials

/// Between ``BusValue`` and GVariant: GVariant is GLib's, so both directions run on the loop.
@GLibLoop
enum BusVariant {
    /// A new floating GVariant for `value` (GDBus takes ownership of floating ones).
    static func make(_ value: BusValue) -> OpaquePointer {
        switch value {
        case .string(let text): return g_variant_new_string(text)
        case .objectPath(let path): return g_variant_new_object_path(path)
        case .bool(let flag): return g_variant_new_boolean(flag ? 1 : 0)
        case .int32(let number): return g_variant_new_int32(number)
        case .uint32(let number): return g_variant_new_uint32(number)
        case .variant(let inner): return g_variant_new_variant(make(inner))
        case .array(let element, let items): return array(element, items.map(make))
        case .dictionary(let key, let value, let entries):
            return array("{" + key + value + "}", entries.map { g_variant_new_dict_entry(make($0.key), make($0.value)) })
        case .tuple(let items):
            var children: [OpaquePointer?] = items.map(make)
            return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        case .other(let type):
            // Only read from the bus, never sent: building one is a mistake of this code.
            preconditionFailure("BusVariant cannot build a value of type \(type)")
        }
    }

    private static func array(_ element: String, _ children: [OpaquePointer]) -> OpaquePointer {
        let type = g_variant_type_new(element)
        defer { g_variant_type_free(type) }
        var items: [OpaquePointer?] = children
        return items.withUnsafeMutableBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    }

    /// The value a GVariant holds (not consumed).
    static func read(_ variant: OpaquePointer) -> BusValue {
        let type = String(cString: g_variant_get_type_string(variant))
        switch type.first {
        case "s": return .string(String(cString: g_variant_get_string(variant, nil)))
        case "o": return .objectPath(String(cString: g_variant_get_string(variant, nil)))
        case "b": return .bool(g_variant_get_boolean(variant) != 0)
        case "i": return .int32(g_variant_get_int32(variant))
        case "u": return .uint32(g_variant_get_uint32(variant))
        case "v":
            guard let inner = g_variant_get_variant(variant) else { return .other(type) }
            defer { g_variant_unref(inner) }
            return .variant(read(inner))
        case "(": return .tuple(children(variant).map { $0 })
        case "a" where type.hasPrefix("a{"):
            let inner = type.dropFirst(2).dropLast()
            let keyType = String(inner.prefix(1)), valueType = String(inner.dropFirst())
            let entries = children(variant).compactMap { entry -> BusEntry? in
                guard case .tuple(let pair) = entry, pair.count == 2 else { return nil }
                return BusEntry(key: pair[0], value: pair[1])
            }
            return .dictionary(key: keyType, value: valueType, entries)
        case "a": return .array(element: String(type.dropFirst()), children(variant))
        case "{": return .tuple(children(variant))
        default: return .other(type)
        }
    }

    private static func children(_ variant: OpaquePointer) -> [BusValue] {
        (0..<g_variant_n_children(variant)).compactMap { index in
            guard let child = g_variant_get_child_value(variant, index) else { return nil }
            defer { g_variant_unref(child) }
            return read(child)
        }
    }

    /// The text of a GError, freed.
    static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    /// A GError as a ``BusError``: the remote error's name when it came from the bus. Freed.
    static func busError(_ error: UnsafeMutablePointer<GError>?) -> BusError {
        guard let error else { return BusError("org.freedesktop.DBus.Error.Failed", "unknown error") }
        let remote = g_dbus_error_get_remote_error(error)
        let name = remote.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        g_free(remote)
        if remote != nil { g_dbus_error_strip_remote_error(error) }
        return BusError(name, message(error))
    }
}
