import CTSS2
import FPKeyFormats
import FoundationEssentials

/// The TPM's endorsement key (EK): its certificate from the TPM maker, its public area, and
/// TPM2_ActivateCredential, which releases a server's secret only to a key loaded in this TPM.
///
/// Only an ECC EK kept at a persistent handle is used: TCG's P-256 one (certificate at NV index
/// 0x01C0000A, key at 0x81010002) or a P-384 one (0x01C00016, 0x81010016, as swtpm makes).
public struct TPMEndorsement: Sendable {
    /// Where an EK's certificate and its persistent key are.
    struct Slot {
        let certificateIndex: UInt32
        let keyHandle: UInt32
    }

    static let slots = [Slot(certificateIndex: 0x01C0_000A, keyHandle: 0x8101_0002),
                        Slot(certificateIndex: 0x01C0_0016, keyHandle: 0x8101_0016)]

    /// What a server needs to make a credential for this TPM.
    public struct Evidence: Sendable, Hashable {
        /// The EK certificate (DER) as the TPM maker wrote it into NV.
        public let certificate: [UInt8]
        /// The EK's TPMT_PUBLIC.
        public let publicArea: [UInt8]
    }

    /// The TPM's identity-key operations, on the same TCTI.
    public let identity: TPMIdentityKey

    /// The TPM of `identity`.
    public init(identity: TPMIdentityKey) { self.identity = identity }

    /// The first ECC EK with a certificate and a persistent key.
    public func evidence() throws(TPMError) -> Evidence {
        let session = try TPMSession(tcti: identity.tcti)
        let present = try session.handles(from: 0x01C0_0000).union(try session.handles(from: 0x8101_0000))
        var problems: [String] = []
        for slot in Self.slots where present.contains(slot.certificateIndex) && present.contains(slot.keyHandle) {
            do {
                let certificate = try readCertificate(slot.certificateIndex, session)
                let area = try session.readPublic(try session.handle(slot.keyHandle))
                return Evidence(certificate: certificate, publicArea: area)
            } catch {
                problems.append(error.description)
            }
        }
        throw TPMError("the TPM has no ECC endorsement key with a certificate at NV 0x01C0000A or 0x01C00016 and a persistent key "
                       + "at 0x81010002 or 0x81010016" + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"))
    }

    /// The secret in a credential the server made for `key` (TPM2_ActivateCredential).
    public func activate(credential: [UInt8], encryptedSecret: [UInt8], key: TPMIdentityKey.Wrapped) throws(TPMError) -> [UInt8] {
        var blob = try TPMMarshalling.value(TPMMarshalling.sized(credential), TPM2B_ID_OBJECT(), Tss2_MU_TPM2B_ID_OBJECT_Unmarshal, "the credential")
        var secret = try TPMMarshalling.value(TPMMarshalling.sized(encryptedSecret), TPM2B_ENCRYPTED_SECRET(),
                                              Tss2_MU_TPM2B_ENCRYPTED_SECRET_Unmarshal, "the encrypted secret")
        let session = try TPMSession(tcti: identity.tcti)
        let activated = try identity.load(key, in: session)
        let present = try session.handles(from: 0x8101_0000)
        var problems: [String] = []
        for slot in Self.slots where present.contains(slot.keyHandle) {
            do {
                let endorsement = try session.handle(slot.keyHandle)
                let area = try TPMPublicArea(marshalled: try session.readPublic(endorsement))
                // The EK's user role: its password where it allows one, else the policy TCG's
                // templates give it (PolicySecret of the endorsement hierarchy).
                let keyAuth = area.attributes.contains(.userWithAuth) ? ESYS_TR(ESYS_TR_PASSWORD) : try policySecret(area.nameAlgorithm, session)
                var certInfo: UnsafeMutablePointer<TPM2B_DIGEST>?
                try TPMError.check(Esys_ActivateCredential(session.context, activated, endorsement, ESYS_TR(ESYS_TR_PASSWORD), keyAuth,
                                                           ESYS_TR(ESYS_TR_NONE), &blob, &secret, &certInfo),
                                   "the TPM did not release the credential")
                defer { Esys_Free(certInfo) }
                guard let certInfo else { throw TPMError("the TPM returned no secret") }
                return Array(try TPMMarshalling.bytes(of: certInfo, Tss2_MU_TPM2B_DIGEST_Marshal, "the secret").dropFirst(2))
            } catch let error as TPMError {
                problems.append(error.description)
            } catch {
                problems.append("its endorsement key \(error)")
            }
        }
        throw TPMError(problems.isEmpty ? "the TPM has no ECC endorsement key at 0x81010002 or 0x81010016" : problems.joined(separator: "; "))
    }

    /// A policy session satisfying PolicySecret(TPM_RH_ENDORSEMENT) with the endorsement hierarchy's (empty) password.
    private func policySecret(_ hash: UInt16, _ session: TPMSession) throws(TPMError) -> ESYS_TR {
        var symmetric = try TPMMarshalling.value([0x00, 0x10], TPMT_SYM_DEF(), Tss2_MU_TPMT_SYM_DEF_Unmarshal, "no cipher")
        var policy = ESYS_TR(ESYS_TR_NONE)
        try TPMError.check(Esys_StartAuthSession(session.context, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                                 ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), nil, TPM2_SE(0x01), &symmetric,
                                                 TPMI_ALG_HASH(hash), &policy),
                           "the TPM did not start a policy session")
        session.flushLater(policy)
        var timeout: UnsafeMutablePointer<TPM2B_TIMEOUT>?
        var ticket: UnsafeMutablePointer<TPMT_TK_AUTH>?
        try TPMError.check(Esys_PolicySecret(session.context, ESYS_TR(ESYS_TR_RH_ENDORSEMENT), policy, ESYS_TR(ESYS_TR_PASSWORD),
                                             ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), nil, nil, nil, 0, &timeout, &ticket),
                           "the endorsement hierarchy refused its policy (is its password set?)")
        Esys_Free(timeout); Esys_Free(ticket)
        return policy
    }

    /// An NV index's whole contents, read in chunks small enough for every TPM's NV buffer.
    private func readCertificate(_ index: UInt32, _ session: TPMSession) throws(TPMError) -> [UInt8] {
        let handle = try session.handle(index)
        var nvPublic: UnsafeMutablePointer<TPM2B_NV_PUBLIC>?
        var nvName: UnsafeMutablePointer<TPM2B_NAME>?
        try TPMError.check(Esys_NV_ReadPublic(session.context, handle, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                              &nvPublic, &nvName), "cannot read NV index 0x\(String(index, radix: 16))")
        defer { Esys_Free(nvPublic); Esys_Free(nvName) }
        guard let nvPublic else { throw TPMError("no NV public area") }
        let size = Int(nvPublic.pointee.nvPublic.dataSize)
        var certificate: [UInt8] = []
        while certificate.count < size {
            let chunk = min(512, size - certificate.count)
            var data: UnsafeMutablePointer<TPM2B_MAX_NV_BUFFER>?
            try TPMError.check(Esys_NV_Read(session.context, handle, handle, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
                                            ESYS_TR(ESYS_TR_NONE), UInt16(chunk), UInt16(certificate.count), &data),
                               "cannot read the EK certificate")
            defer { Esys_Free(data) }
            guard let data else { throw TPMError("no NV data") }
            let bytes = try TPMMarshalling.bytes(of: data, Tss2_MU_TPM2B_MAX_NV_BUFFER_Marshal, "NV data").dropFirst(2)
            guard bytes.count == chunk else { throw TPMError("the TPM read \(bytes.count) bytes of NV, not \(chunk)") }
            certificate += bytes
        }
        return certificate
    }
}
