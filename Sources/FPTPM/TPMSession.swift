import CTSS2

/// One connection to a TPM through a TCTI (`swtpm:host=127.0.0.1,port=2321`, `device:/dev/tpmrm0`),
/// with every object it loaded flushed when it closes: a TPM has room for only a few.
///
/// Not shareable: tpm2-tss's ESYS context is single-threaded. Each operation opens its own.
final class TPMSession {
    private var tcti: OpaquePointer?
    private(set) var context: OpaquePointer?
    private var loaded: [ESYS_TR] = []

    init(tcti configuration: String) throws(TPMError) {
        try TPMError.check(Tss2_TctiLdr_Initialize(configuration, &tcti), "cannot reach the TPM at '\(configuration)'")
        let rc = Esys_Initialize(&context, tcti, nil)
        if rc != 0 {
            Tss2_TctiLdr_Finalize(&tcti)
            throw TPMError("cannot start a session with the TPM at '\(configuration)'", rc: rc)
        }
    }

    deinit {
        for handle in loaded.reversed() { _ = Esys_FlushContext(context, handle) }
        Esys_Finalize(&context)
        Tss2_TctiLdr_Finalize(&tcti)
    }

    /// Flushes `handle` when the session closes.
    func flushLater(_ handle: ESYS_TR) { loaded.append(handle) }

    /// Sets the authorisation value the next password session on `handle` presents.
    func setAuth(_ handle: ESYS_TR, _ value: [UInt8]) throws(TPMError) {
        let auth = try TPMMarshalling.value(TPMMarshalling.sized(value), TPM2B_AUTH(), Tss2_MU_TPM2B_DIGEST_Unmarshal, "an authorisation value")
        var copy = auth
        try TPMError.check(Esys_TR_SetAuth(context, handle, &copy), "cannot set an authorisation value")
    }

    /// The object or NV index at a TPM handle (a persistent key, an NV index).
    func handle(_ tpmHandle: UInt32) throws(TPMError) -> ESYS_TR {
        var object = ESYS_TR(ESYS_TR_NONE)
        try TPMError.check(Esys_TR_FromTPMPublic(context, tpmHandle, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                                 ESYS_TR(ESYS_TR_NONE), &object),
                           "the TPM has nothing at 0x\(String(tpmHandle, radix: 16))")
        return object
    }

    /// The handles the TPM has from `first` on (NV indices, persistent keys), up to 64: asked
    /// before a handle is used, so that a missing one is not an error tpm2-tss logs.
    func handles(from first: UInt32) throws(TPMError) -> Set<UInt32> {
        var more: TPMI_YES_NO = 0
        var data: UnsafeMutablePointer<TPMS_CAPABILITY_DATA>?
        try TPMError.check(Esys_GetCapability(context, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                              TPM2_CAP(1), first, 64, &more, &data), "cannot list the TPM's handles")
        defer { Esys_Free(data) }
        guard let data else { return [] }
        // TPM_CAP_HANDLES, then TPML_HANDLE: a count and that many handles, all four bytes big-endian.
        let bytes = try TPMMarshalling.bytes(of: data, Tss2_MU_TPMS_CAPABILITY_DATA_Marshal, "the handle list")
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        guard bytes.count >= 8, word(0) == 1, bytes.count == 8 + 4 * Int(word(4)) else { throw TPMError("the TPM's handle list does not parse") }
        return Set((0..<Int(word(4))).map { word(8 + 4 * $0) })
    }

    /// An object's public area (TPMT_PUBLIC bytes).
    func readPublic(_ object: ESYS_TR) throws(TPMError) -> [UInt8] {
        var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>?
        var name: UnsafeMutablePointer<TPM2B_NAME>?
        var qualified: UnsafeMutablePointer<TPM2B_NAME>?
        try TPMError.check(Esys_ReadPublic(context, object, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                           &outPublic, &name, &qualified), "cannot read a public area")
        defer { Esys_Free(outPublic); Esys_Free(name); Esys_Free(qualified) }
        guard let outPublic else { throw TPMError("the TPM returned no public area") }
        return try Self.publicArea(outPublic)
    }

    /// The TPMT_PUBLIC inside a TPM2B_PUBLIC.
    static func publicArea(_ value: UnsafePointer<TPM2B_PUBLIC>) throws(TPMError) -> [UInt8] {
        Array(try TPMMarshalling.bytes(of: value, Tss2_MU_TPM2B_PUBLIC_Marshal, "a public area").dropFirst(2))
    }

    /// A TPM2B_PUBLIC of a TPMT_PUBLIC's bytes.
    static func sizedPublic(_ area: [UInt8]) throws(TPMError) -> TPM2B_PUBLIC {
        try TPMMarshalling.value(TPMMarshalling.sized(area), TPM2B_PUBLIC(), Tss2_MU_TPM2B_PUBLIC_Unmarshal, "a public area")
    }
}
