/// Writes CBOR in CTAP2's canonical form (CTAP 2.1 §8): shortest integers and lengths,
/// definite lengths, and map keys sorted by their encoding, shorter first, then bytewise.
/// Hosts verify signatures over what the authenticator wrote, so one value has one encoding.
package enum CBOREncoder {
    /// `value` in canonical CBOR.
    package static func encode(_ value: CBORValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out)
        return out
    }

    private static func write(_ value: CBORValue, into out: inout [UInt8]) {
        switch value {
        case .unsigned(let n): head(0, n, into: &out)
        case .negative(let n): head(1, n, into: &out)
        case .bytes(let b):
            head(2, UInt64(b.count), into: &out)
            out += b
        case .text(let s):
            let utf8 = Array(s.utf8)
            head(3, UInt64(utf8.count), into: &out)
            out += utf8
        case .array(let elements):
            head(4, UInt64(elements.count), into: &out)
            for element in elements { write(element, into: &out) }
        case .map(let entries):
            head(5, UInt64(entries.count), into: &out)
            let sorted = entries.map { (key: encode($0.key), value: $0.value) }.sorted { canonicallyBefore($0.key, $1.key) }
            for entry in sorted {
                out += entry.key
                write(entry.value, into: &out)
            }
        case .bool(let b): out.append(b ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        case .undefined: out.append(0xF7)
        }
    }

    /// CTAP2's key order: the shorter encoding first; of equal lengths, the lower bytes first.
    static func canonicallyBefore(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
    }

    /// A major type's initial byte and its argument in the fewest bytes.
    private static func head(_ major: UInt8, _ argument: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xFF: out += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: out.append(type | 25); appendBigEndian(argument, bytes: 2, into: &out)
        case 0x1_0000...0xFFFF_FFFF: out.append(type | 26); appendBigEndian(argument, bytes: 4, into: &out)
        default: out.append(type | 27); appendBigEndian(argument, bytes: 8, into: &out)
        }
    }

    private static func appendBigEndian(_ value: UInt64, bytes: Int, into out: inout [UInt8]) {
        for index in stride(from: bytes - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
