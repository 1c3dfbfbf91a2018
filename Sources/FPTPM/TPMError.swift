import CTSS2

/// A TPM that cannot be reached, refuses a command, or answers with something unusable.
public struct TPMError: Error, Sendable, CustomStringConvertible {
    /// What failed, with tpm2-tss's reading of the return code.
    public let description: String

    init(_ description: String) { self.description = description }

    /// `what` failed with return code `rc`.
    init(_ what: String, rc: TSS2_RC) {
        let decoded = Tss2_RC_Decode(rc).map { String(cString: $0) } ?? "0x\(String(rc, radix: 16))"
        self.description = "\(what): \(decoded)"
    }

    /// Throws unless `rc` is success.
    static func check(_ rc: TSS2_RC, _ what: @autoclosure () -> String) throws(TPMError) {
        guard rc == 0 else { throw TPMError(what(), rc: rc) }
    }
}
