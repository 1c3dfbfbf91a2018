@testable import FPPasskeys
import Testing

/// CTAP2's CBOR: RFC 8949's examples both ways, the canonical key order, and every refusal.
@Suite struct CBORTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// RFC 8949 Appendix A, the examples CTAP2's subset has.
    static let examples: [(CBORValue, String)] = [
        (.unsigned(0), "00"), (.unsigned(23), "17"), (.unsigned(24), "1818"), (.unsigned(100), "1864"),
        (.unsigned(1000), "1903e8"), (.unsigned(1_000_000), "1a000f4240"), (.unsigned(UInt64.max), "1bffffffffffffffff"),
        (.int(-1), "20"), (.int(-10), "29"), (.int(-1000), "3903e7"), (.negative(UInt64.max), "3bffffffffffffffff"),
        (.bytes([]), "40"), (.bytes([1, 2, 3, 4]), "4401020304"),
        (.text(""), "60"), (.text("a"), "6161"), (.text("IETF"), "6449455446"), (.text("ü"), "62c3bc"),
        (.array([]), "80"), (.array([.unsigned(1), .unsigned(2), .unsigned(3)]), "83010203"),
        (.array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]), "8301820203820405"),
        (.map([:]), "a0"), (.map([.unsigned(1): .unsigned(2), .unsigned(3): .unsigned(4)]), "a201020304"),
        (.map([.text("a"): .unsigned(1), .text("b"): .array([.unsigned(2), .unsigned(3)])]), "a26161016162820203"),
        (.bool(false), "f4"), (.bool(true), "f5"), (.null, "f6"), (.undefined, "f7"),
    ]

    @Test func rfcExamplesEncodeAndDecode() throws {
        for (value, encoded) in Self.examples {
            #expect(CBOREncoder.encode(value) == Self.hex(encoded), "\(value)")
            #expect(try CBORDecoder.decode(Self.hex(encoded)) == value, "\(encoded)")
        }
    }

    @Test func mapKeysAreWrittenInCTAP2CanonicalOrder() throws {
        // Shorter encodings first (10, -1, "b"), then bytewise among equal lengths ("b" before "aa" by length).
        let value = CBORValue.map([.text("aa"): .unsigned(1), .text("b"): .unsigned(2), .unsigned(10): .unsigned(3), .int(-1): .unsigned(4)])
        #expect(CBOREncoder.encode(value) == Self.hex("a40a03200461620262616101"))
        // A host's map in another order is read, and written back canonically.
        let unsorted = try CBORDecoder.decode(Self.hex("a203040102"))
        #expect(CBOREncoder.encode(unsorted) == Self.hex("a201020304"))
    }

    @Test func integerHelpersReadSignedValues() {
        #expect(CBORValue.int(-7).intValue == -7)
        #expect(CBORValue.int(Int64.min).intValue == Int64.min)
        #expect(CBORValue.unsigned(UInt64.max).intValue == nil)
        #expect(CBORValue.text("x").intValue == nil)
        #expect(CBORValue.map([.unsigned(1): .text("rp")])[.unsigned(1)] == .text("rp"))
    }

    static let refusals: [(String, CBORError)] = [
        ("", .truncated(at: 0)), ("18", .truncated(at: 1)), ("4401 02", .truncated(at: 0)), ("8201", .truncated(at: 0)), ("810100", .trailingBytes(at: 2)), ("82", .truncated(at: 0)),
        ("0000", .trailingBytes(at: 1)),
        ("5f4101ff", .indefiniteLength(at: 0)), ("9fff", .indefiniteLength(at: 0)), ("bfff", .indefiniteLength(at: 0)),
        ("ff", .indefiniteLength(at: 0)),
        ("1817", .nonMinimal(at: 0)), ("1900ff", .nonMinimal(at: 0)), ("1a0000ffff", .nonMinimal(at: 0)),
        ("1b00000000ffffffff", .nonMinimal(at: 0)), ("580100", .nonMinimal(at: 0)), ("3817", .nonMinimal(at: 0)),
        ("f93c00", .unsupported(at: 0)), ("fb3ff0000000000000", .unsupported(at: 0)), ("c000", .unsupported(at: 0)),
        ("1c", .unsupported(at: 0)), ("f0", .unsupported(at: 0)), ("f820", .unsupported(at: 0)),
        ("a201020103", .duplicateKey(at: 3)), ("6 2c328", .invalidUTF8(at: 0)),
        // Counts far past the input are refused before anything is allocated for them.
        ("9bffffffffffffffff", .truncated(at: 0)), ("bb7fffffffffffffff00", .truncated(at: 0)),
        ("5b00000001000000000102", .truncated(at: 0)),
    ]

    @Test func malformedInputIsRefusedWithItsReason() {
        for (input, reason) in Self.refusals {
            let bytes = Self.hex(input.filter { $0 != " " })
            #expect(throws: reason, "\(input)") { try CBORDecoder.decode(bytes) }
            #expect(reason.ctapStatus == 0x12)
        }
    }

    @Test func nestingIsBounded() throws {
        let deepest = [UInt8](repeating: 0x81, count: CBORDecoder.defaultMaximumDepth) + [0x00]
        #expect(throws: Never.self) { try CBORDecoder.decode(deepest) }
        let tooDeep = [UInt8](repeating: 0x81, count: CBORDecoder.defaultMaximumDepth + 1) + [0x00]
        #expect(throws: CBORError.tooDeep(at: CBORDecoder.defaultMaximumDepth)) { try CBORDecoder.decode(tooDeep) }
        // A map's value counts as a level as an array's element does.
        let maps = Array([[UInt8]](repeating: [0xA1, 0x01], count: CBORDecoder.defaultMaximumDepth + 1).joined()) + [0x00]
        #expect(throws: CBORError.tooDeep(at: 2 * CBORDecoder.defaultMaximumDepth)) { try CBORDecoder.decode(maps) }
    }

    @Test func aMakeCredentialShapedMessageRoundTrips() throws {
        let request = CBORValue.map([
            .unsigned(1): .bytes([UInt8](repeating: 0xAB, count: 32)),
            .unsigned(2): .map([.text("id"): .text("example.org"), .text("name"): .text("Example")]),
            .unsigned(3): .map([.text("id"): .bytes([1, 2, 3]), .text("name"): .text("alice"), .text("displayName"): .text("Alice 爱丽丝")]),
            .unsigned(4): .array([.map([.text("alg"): .int(-7), .text("type"): .text("public-key")])]),
            .unsigned(7): .map([.text("rk"): .bool(true)]),
        ])
        let encoded = CBOREncoder.encode(request)
        #expect(try CBORDecoder.decode(encoded) == request)
        #expect(CBOREncoder.encode(try CBORDecoder.decode(encoded)) == encoded)
    }
}
