/// One CBOR data item as CTAP2 uses them (RFC 8949, restricted by CTAP 2.1 §8 "Message encoding"):
/// integers, byte and text strings, arrays, maps, booleans, null and undefined. Floats and tags
/// never occur in CTAP messages and are refused by ``CBORDecoder`` rather than carried.
package indirect enum CBORValue: Hashable, Sendable {
    /// A non-negative integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer, stored as CBOR does: the value is `-1 - n` (major type 1).
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A UTF-8 text string (major type 3), checked on decoding.
    case text(String)
    /// An array (major type 4).
    case array([CBORValue])
    /// A map (major type 5). Keys are unique; ``CBOREncoder`` writes them in CTAP2's canonical order.
    case map([CBORValue: CBORValue])
    /// `true` or `false` (simple values 20 and 21).
    case bool(Bool)
    /// `null` (simple value 22).
    case null
    /// `undefined` (simple value 23).
    case undefined

    /// An integer value, signed: CTAP's map keys and algorithm identifiers (-7 for ES256).
    package static func int(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The value as a signed integer, when it is one that fits an `Int64`.
    package var intValue: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The entry under `key` when this is a map.
    package subscript(key: CBORValue) -> CBORValue? {
        if case .map(let entries) = self { return entries[key] }
        return nil
    }
}
