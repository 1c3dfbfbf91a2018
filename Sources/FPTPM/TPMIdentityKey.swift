import CTSS2
import Crypto
import FPKeyFormats
import FoundationEssentials

/// fpbridged's device identity key in a TPM 2.0: ECDSA P-256, restricted, made in the TPM and
/// never leaving it (fixedTPM, fixedParent, sensitiveDataOrigin).
///
/// The key is wrapped under a primary storage key of the owner hierarchy, which the TPM makes
/// again from its template each time (same seed, same template: same key), so what the caller
/// keeps is only ``Wrapped``: the public area, the private part as the TPM encrypted it (of no
/// use to any other TPM) and the key's random authorisation value.
public struct TPMIdentityKey: Sendable {
    /// What the caller stores for the key; none of it is the private key.
    public struct Wrapped: Sendable, Hashable {
        /// TPMT_PUBLIC bytes.
        public let publicArea: [UInt8]
        /// TPM2B_PRIVATE bytes: the private key encrypted by the TPM's storage key.
        public let wrappedPrivate: [UInt8]
        /// The authorisation value the TPM asks for before it signs.
        public let auth: [UInt8]

        /// Wrapped key parts as stored.
        public init(publicArea: [UInt8], wrappedPrivate: [UInt8], auth: [UInt8]) {
            self.publicArea = publicArea
            self.wrappedPrivate = wrappedPrivate
            self.auth = auth
        }

        /// The key's public area, parsed and checked to be an identity key's.
        public func area() throws(TPMError) -> TPMPublicArea {
            let area: TPMPublicArea
            do { area = try TPMPublicArea(marshalled: publicArea) } catch { throw TPMError("the identity key's public area \(error)") }
            guard area.attributes == TPMPublicArea.identityAttributes, area.curve == TPMPublicArea.identityTemplate.curve else {
                throw TPMError("the stored key is not a restricted P-256 signing key of this TPM")
            }
            return area
        }

        /// The public key.
        public func publicKey() throws(TPMError) -> P256.Signing.PublicKey {
            guard let key = try? P256.Signing.PublicKey(x963Representation: try area().x963) else {
                throw TPMError("the identity key's public point is not on P-256")
            }
            return key
        }
    }

    /// The TCTI configuration the TPM is reached through.
    public let tcti: String

    /// The TPM at `tcti`.
    public init(tcti: String) { self.tcti = tcti }

    /// Throws unless the TPM answers and can make the storage key the identity key lives under:
    /// a service started with a TPM it cannot use fails at start, not at its first attestation.
    public func probe() throws(TPMError) {
        let session = try TPMSession(tcti: tcti)
        _ = try storageKey(session)
    }

    /// Makes a new identity key in the TPM.
    public func create() throws(TPMError) -> Wrapped {
        let session = try TPMSession(tcti: tcti)
        let parent = try storageKey(session)
        let auth = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        var sensitive = try TPMMarshalling.value(TPMMarshalling.sized(TPMMarshalling.sized(auth) + [0, 0]), TPM2B_SENSITIVE_CREATE(),
                                                 Tss2_MU_TPM2B_SENSITIVE_CREATE_Unmarshal, "the key's sensitive template")
        var template = try TPMSession.sizedPublic(TPMPublicArea.identityTemplate.marshalled)
        var outside = TPM2B_DATA()
        var pcrs = TPML_PCR_SELECTION()
        var outPrivate: UnsafeMutablePointer<TPM2B_PRIVATE>?
        var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>?
        var creationData: UnsafeMutablePointer<TPM2B_CREATION_DATA>?
        var creationHash: UnsafeMutablePointer<TPM2B_DIGEST>?
        var ticket: UnsafeMutablePointer<TPMT_TK_CREATION>?
        try TPMError.check(Esys_Create(session.context, parent, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                       &sensitive, &template, &outside, &pcrs,
                                       &outPrivate, &outPublic, &creationData, &creationHash, &ticket),
                           "the TPM did not make the identity key")
        defer { Esys_Free(outPrivate); Esys_Free(outPublic); Esys_Free(creationData); Esys_Free(creationHash); Esys_Free(ticket) }
        guard let outPrivate, let outPublic else { throw TPMError("the TPM returned no key") }
        let wrapped = Wrapped(publicArea: try TPMSession.publicArea(outPublic),
                              wrappedPrivate: try TPMMarshalling.bytes(of: outPrivate, Tss2_MU_TPM2B_PRIVATE_Marshal, "the wrapped key"),
                              auth: auth)
        _ = try wrapped.publicKey()
        return wrapped
    }

    /// The key's ECDSA P-256/SHA-256 signature (DER) over `data`, made by the TPM.
    ///
    /// A restricted key signs only a digest the TPM computed itself, with a ticket saying the
    /// data did not begin like one of the TPM's own attestations: TPM2_Hash gives both.
    public func sign(_ data: [UInt8], with key: Wrapped) throws(TPMError) -> Data {
        guard data.count <= 1024 else { throw TPMError("a statement of \(data.count) bytes is longer than TPM2_Hash takes") }
        let session = try TPMSession(tcti: tcti)
        let handle = try load(key, in: session)
        var buffer = try TPMMarshalling.value(TPMMarshalling.sized(data), TPM2B_MAX_BUFFER(), Tss2_MU_TPM2B_MAX_BUFFER_Unmarshal, "the data")
        var digest: UnsafeMutablePointer<TPM2B_DIGEST>?
        var validation: UnsafeMutablePointer<TPMT_TK_HASHCHECK>?
        try TPMError.check(Esys_Hash(session.context, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &buffer,
                                     TPMI_ALG_HASH(0x000B), ESYS_TR(ESYS_TR_RH_OWNER), &digest, &validation),
                           "the TPM did not hash the statement")
        defer { Esys_Free(digest); Esys_Free(validation) }
        // TPM_ALG_NULL: the key's own scheme, ECDSA with SHA-256.
        var scheme = try TPMMarshalling.value([0x00, 0x10], TPMT_SIG_SCHEME(), Tss2_MU_TPMT_SIG_SCHEME_Unmarshal, "a scheme")
        var signature: UnsafeMutablePointer<TPMT_SIGNATURE>?
        try TPMError.check(Esys_Sign(session.context, handle, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                     digest, &scheme, validation, &signature),
                           "the TPM did not sign with the identity key")
        defer { Esys_Free(signature) }
        guard let signature else { throw TPMError("the TPM returned no signature") }
        return try Self.der(try TPMMarshalling.bytes(of: signature, Tss2_MU_TPMT_SIGNATURE_Marshal, "the signature"))
    }

    /// The primary storage key of the owner hierarchy (made again from its template, flushed at the end).
    ///
    /// Made again for each command rather than kept loaded (issue 41 §2 asked): the kernel's
    /// resource manager (`/dev/tpmrm0`) flushes a connection's transient objects when it closes,
    /// so keeping the key would mean one long-lived ESYS context shared by every request's
    /// thread, and a TPM reset or another program's clear would leave it pointing at nothing.
    /// The cost, one `CreatePrimary` per signature or activation, no longer holds up other
    /// requests: no TPM command runs inside the state's lock (`KeyVault.attest`), and the
    /// service runs them on its blocking threads, never on the cooperative pool.
    func storageKey(_ session: TPMSession) throws(TPMError) -> ESYS_TR {
        var sensitive = TPM2B_SENSITIVE_CREATE()
        var template = try TPMSession.sizedPublic(TPMPublicArea.storageTemplate.marshalled)
        var outside = TPM2B_DATA()
        var pcrs = TPML_PCR_SELECTION()
        var handle = ESYS_TR(ESYS_TR_NONE)
        var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>?
        var creationData: UnsafeMutablePointer<TPM2B_CREATION_DATA>?
        var creationHash: UnsafeMutablePointer<TPM2B_DIGEST>?
        var ticket: UnsafeMutablePointer<TPMT_TK_CREATION>?
        try TPMError.check(Esys_CreatePrimary(session.context, ESYS_TR(ESYS_TR_RH_OWNER), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
                                              ESYS_TR(ESYS_TR_NONE), &sensitive, &template, &outside, &pcrs,
                                              &handle, &outPublic, &creationData, &creationHash, &ticket),
                           "the TPM did not make its storage key (is the owner hierarchy's password set?)")
        Esys_Free(outPublic); Esys_Free(creationData); Esys_Free(creationHash); Esys_Free(ticket)
        session.flushLater(handle)
        return handle
    }

    /// Loads the wrapped key under the storage key, with its authorisation value set.
    func load(_ key: Wrapped, in session: TPMSession) throws(TPMError) -> ESYS_TR {
        _ = try key.area()
        let parent = try storageKey(session)
        var inPrivate = try TPMMarshalling.value(key.wrappedPrivate, TPM2B_PRIVATE(), Tss2_MU_TPM2B_PRIVATE_Unmarshal, "the wrapped key")
        var inPublic = try TPMSession.sizedPublic(key.publicArea)
        var handle = ESYS_TR(ESYS_TR_NONE)
        try TPMError.check(Esys_Load(session.context, parent, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                     &inPrivate, &inPublic, &handle),
                           "the TPM did not load the identity key (another TPM's, or the TPM was cleared)")
        session.flushLater(handle)
        try session.setAuth(handle, key.auth)
        return handle
    }

    /// TPMT_SIGNATURE (ECDSA: algorithm, hash, r, s) to DER.
    static func der(_ marshalled: [UInt8]) throws(TPMError) -> Data {
        func sized(_ at: Int) -> (bytes: [UInt8], end: Int)? {
            guard marshalled.count >= at + 2 else { return nil }
            let length = Int(marshalled[at]) << 8 | Int(marshalled[at + 1])
            guard length <= 32, marshalled.count >= at + 2 + length else { return nil }
            return (Array(marshalled[(at + 2)..<(at + 2 + length)]), at + 2 + length)
        }
        guard marshalled.count > 4, marshalled[0...3] == [0x00, 0x18, 0x00, 0x0B], let r = sized(4), let s = sized(r.end), s.end == marshalled.count,
              let signature = try? P256.Signing.ECDSASignature(
                  rawRepresentation: [UInt8](repeating: 0, count: 32 - r.bytes.count) + r.bytes + [UInt8](repeating: 0, count: 32 - s.bytes.count) + s.bytes)
        else { throw TPMError("the TPM's signature is not ECDSA P-256 with SHA-256") }
        return signature.derRepresentation
    }
}
