import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation

extension AccountService {
    /// `POST /v1/devices/tpm-credentials`: a credential (TPM2_MakeCredential, in software) that
    /// the TPM of the evidence's endorsement key releases only to the evidence's identity key.
    func tpmCredential(_ request: TPMCredentialRequest, session: SessionInfo) async throws -> TPMCredentialChallenge {
        try requirePasswordSession(session, "bind a device")
        let trust = try tpmTrust()
        let checked = try await trust.check(request.tpm)
        let expiresAt = Clock.milliseconds() + TPMTrust.credentialSeconds * 1000
        let blob: TPMCredential.Blob
        do {
            blob = try TPMCredential.make(secret: trust.secret(for: checked, expiresAt: expiresAt), objectName: checked.identity.name,
                                          endorsementKey: checked.endorsement)
        } catch {
            throw AccountError(.tpmAttestationRejected, "no credential can be made for this endorsement key: \(error)")
        }
        return TPMCredentialChallenge(credential: Data(blob.credential).base64EncodedString(),
                                      encryptedSecret: Data(blob.encryptedSecret).base64EncodedString(), expiresAt: expiresAt)
    }

    /// Refuses (`tpmAttestationRejected`) unless `proof` shows that `identityKey` (PEM) is a
    /// restricted key in a TPM whose endorsement certificate chains to a trusted maker's CA:
    /// the evidence checks, its identity key is the attestation's, and the TPM released the
    /// credential's secret in time.
    func checkTPM(_ proof: TPMProof, identityKey: String) async throws {
        let trust = try tpmTrust()
        let checked = try await trust.check(proof.evidence)
        guard try TPMTrust.identityPoint(checked.identity).pemRepresentation == identityKey else {
            throw AccountError(.tpmAttestationRejected, "the TPM's identity key is not the key that signed this attestation")
        }
        let now = Clock.milliseconds()
        guard proof.expiresAt > now, proof.expiresAt <= now + TPMTrust.credentialSeconds * 1000 else {
            throw AccountError(.tpmAttestationRejected, "the TPM credential expired; ask for a new one")
        }
        guard proof.secret.utf8.count < 200, let secret = Data(base64Encoded: proof.secret),
              trust.isSecret(secret, for: checked, expiresAt: proof.expiresAt) else {
            throw AccountError(.tpmAttestationRejected, "the secret is not the credential's: the identity key is not shown to be "
                               + "in the TPM of that endorsement key")
        }
    }

    private func tpmTrust() throws -> TPMTrust {
        guard let tpm else {
            throw AccountError(.tpmAttestationRejected, "this server trusts no TPM maker (its operator gives none with --tpm-ca)")
        }
        return tpm
    }
}
