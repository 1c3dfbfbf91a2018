import FoundationEssentials

/// Big-endian bytes as the TPM 2.0 specification marshals them (Part 2: structures).
struct TPMWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xff)] }
    mutating func u32(_ value: UInt32) { bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)] }
    /// A TPM2B: its length in two bytes, then the bytes.
    mutating func sized(_ value: [UInt8]) {
        u16(UInt16(value.count))
        bytes += value
    }
}

/// Reads what ``TPMWriter`` writes; every read fails rather than run past the end.
struct TPMReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset == bytes.count }

    mutating func u16() throws(TPMFormatError) -> UInt16 {
        let pair = try take(2)
        return UInt16(pair[0]) << 8 | UInt16(pair[1])
    }

    mutating func u32() throws(TPMFormatError) -> UInt32 {
        let four = try take(4)
        return four.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func sized() throws(TPMFormatError) -> [UInt8] { try take(Int(try u16())) }

    private mutating func take(_ count: Int) throws(TPMFormatError) -> [UInt8] {
        guard count <= bytes.count - offset else { throw TPMFormatError("ends early") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}

/// A TPM structure that does not parse, or is not the kind fpbridge accepts.
public struct TPMFormatError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, for a message.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The TPM 2.0 algorithm and curve identifiers fpbridge uses (Part 2, TPM_ALG_ID and TPM_ECC_CURVE).
enum TPMAlgorithm {
    static let sha256: UInt16 = 0x000B
    static let sha384: UInt16 = 0x000C
    static let null: UInt16 = 0x0010
    static let aes: UInt16 = 0x0006
    static let cfb: UInt16 = 0x0043
    static let ecdsa: UInt16 = 0x0018
    static let ecc: UInt16 = 0x0023
    static let curveP256: UInt16 = 0x0003
    static let curveP384: UInt16 = 0x0004
}
