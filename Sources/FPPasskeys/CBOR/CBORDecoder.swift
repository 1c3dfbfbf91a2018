/// Reads exactly one CBOR item from untrusted bytes, in CTAP2's canonical subset: definite
/// lengths, shortest encodings, unique map keys, nesting bounded. Map keys may come in any
/// order (RFC 8949 leaves that to the sender and hosts differ); everything else that CTAP2's
/// canonical form forbids is refused, so that two parsers can never read one message two ways.
///
/// Nothing is allocated from a length the input claims before the bytes are there: every item
/// takes at least one byte, so a count larger than what is left is `truncated` at once.
package struct CBORDecoder {
    /// How deep arrays and maps may nest. CTAP 2.1's messages need 4 levels (§8: authenticators
    /// must accept at least that); a few more leave room for extensions.
    package static let defaultMaximumDepth = 8

    private let bytes: [UInt8]
    private var offset = 0
    private let maximumDepth: Int

    private init(_ bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The one item `bytes` hold, or why they are not one.
    package static func decode(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(CBORError) -> CBORValue {
        var decoder = CBORDecoder(bytes, maximumDepth: maximumDepth)
        let value = try decoder.item(depth: 0)
        guard decoder.offset == bytes.count else { throw .trailingBytes(at: decoder.offset) }
        return value
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        let start = offset
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 { return try simple(info, at: start) }
        if major == 6 { throw .unsupported(at: start) }
        let argument = try self.argument(info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument, at: start))
        case 3:
            let raw = try take(argument, at: start)
            guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8(at: start) }
            return .text(text)
        case 4:
            guard depth < maximumDepth else { throw .tooDeep(at: start) }
            let count = try fitting(argument, bytesEach: 1, at: start)
            var elements: [CBORValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case 5:
            guard depth < maximumDepth else { throw .tooDeep(at: start) }
            let count = try fitting(argument, bytesEach: 2, at: start)
            var entries: [CBORValue: CBORValue] = [:]
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let keyAt = offset
                let key = try item(depth: depth + 1)
                let value = try item(depth: depth + 1)
                guard entries.updateValue(value, forKey: key) == nil else { throw .duplicateKey(at: keyAt) }
            }
            return .map(entries)
        default: // 6 (tags, which CTAP2 never uses) was refused above, 7 handled
            throw .unsupported(at: start)
        }
    }

    /// Simple values and floats (major type 7): CTAP uses false, true, null and undefined only.
    private func simple(_ info: UInt8, at start: Int) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 31: throw .indefiniteLength(at: start) // the "break" stop code, outside any indefinite item
        default: throw .unsupported(at: start)
        }
    }

    /// The item's argument (its value or its length), refused when not written in its shortest form.
    private mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            let size = 1 << Int(info - 24)
            var value: UInt64 = 0
            for _ in 0..<size { value = value << 8 | UInt64(try byte()) }
            // The shortest form: one byte only from 24, two only past 0xFF, and so on.
            let floor: UInt64 = size == 1 ? 24 : 1 << (4 * size)
            guard value >= floor else { throw .nonMinimal(at: start) }
            return value
        case 31: throw .indefiniteLength(at: start)
        default: throw .unsupported(at: start) // 28-30 are reserved
        }
    }

    /// A count of items, each taking at least `bytesEach` bytes, checked against what is left.
    private func fitting(_ count: UInt64, bytesEach: UInt64, at start: Int) throws(CBORError) -> Int {
        let left = UInt64(bytes.count - offset)
        guard count <= left / bytesEach else { throw .truncated(at: start) }
        return Int(count)
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ count: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
        let length = try fitting(count, bytesEach: 1, at: start)
        defer { offset += length }
        return Array(bytes[offset..<offset + length])
    }
}
