import CTSS2

/// tpm2-tss structures to and from the TPM's own byte layout: Swift builds and reads the bytes
/// (FPKeyFormats' TPM types), so it never reaches into the structures' fixed-size arrays.
enum TPMMarshalling {
    typealias Marshal<T> = (UnsafePointer<T>?, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> TSS2_RC
    typealias Unmarshal<T> = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<T>?) -> TSS2_RC

    /// The largest structure fpbridge moves (an NV chunk, a public area, a wrapped private key) fits in this.
    static let bufferSize = 4096

    static func bytes<T>(of value: UnsafePointer<T>, _ marshal: Marshal<T>, _ what: String) throws(TPMError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        var offset = 0
        let rc = buffer.withUnsafeMutableBufferPointer { marshal(value, $0.baseAddress, $0.count, &offset) }
        try TPMError.check(rc, "cannot marshal \(what)")
        return Array(buffer[0..<offset])
    }

    /// The structure in exactly `bytes`; a structure that does not use them all is refused.
    static func value<T>(_ bytes: [UInt8], _ empty: T, _ unmarshal: Unmarshal<T>, _ what: String) throws(TPMError) -> T {
        var value = empty
        var offset = 0
        let rc = bytes.withUnsafeBufferPointer { unmarshal($0.baseAddress, $0.count, &offset, &value) }
        try TPMError.check(rc, "cannot unmarshal \(what)")
        guard offset == bytes.count else { throw TPMError("\(what) has \(bytes.count - offset) bytes after its end") }
        return value
    }

    /// A TPM2B of `bytes`: their length in two bytes, then them.
    static func sized(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xff)] + bytes }
}
