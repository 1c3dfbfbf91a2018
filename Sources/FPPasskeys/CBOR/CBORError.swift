/// Why bytes from a host are not one CTAP2 CBOR item. Every case is answered
/// `CTAP2_ERR_INVALID_CBOR` (``ctapStatus``); the case names the reason for the log.
package enum CBORError: Error, Equatable, Sendable {
    /// The input ends inside an item (at this byte offset).
    case truncated(at: Int)
    /// Bytes follow the one item a message holds (from this offset).
    case trailingBytes(at: Int)
    /// An indefinite-length string, array or map: CTAP2 allows definite lengths only.
    case indefiniteLength(at: Int)
    /// A length or integer written in more bytes than it needs: CTAP2's canonical form is the shortest.
    case nonMinimal(at: Int)
    /// A float, a tag, a reserved additional-information value or an unassigned simple value.
    case unsupported(at: Int)
    /// Arrays and maps nested deeper than the decoder allows.
    case tooDeep(at: Int)
    /// A map holds the same key twice.
    case duplicateKey(at: Int)
    /// A text string that is not UTF-8.
    case invalidUTF8(at: Int)

    /// CTAP2_ERR_INVALID_CBOR, the status CTAP 2.1 gives every one of these.
    package var ctapStatus: UInt8 { 0x12 }
}
