import FPAuthentication
import FPLocalAPI
import FPTPM
import Foundation
import Hummingbird

/// The TPM behind the device identity key (fpbridged `--tpm`): its evidence in attestations,
/// and TPM2_ActivateCredential for a server that wants proof the key is in that TPM.
extension ServiceRoutes {
    /// The endorsement certificate and key, and the identity key's public area; nil without `--tpm`.
    func tpmEvidence(_ target: RequestTarget) throws -> WireTPMEvidence? {
        guard let identity = try tpmIdentity(target) else { return nil }
        let endorsement = try TPMDeviceIdentity.tpm { () throws(TPMError) in try TPMEndorsement(identity: identity.tpm.tpm).evidence() }
        return WireTPMEvidence(endorsementCertificate: Data(endorsement.certificate).base64EncodedString(),
                               endorsementKey: Data(endorsement.publicArea).base64EncodedString(),
                               identityKey: Data(identity.key.publicArea).base64EncodedString())
    }

    /// `POST identity/activate`: the secret in a server's credential, released by the TPM only
    /// to this identity key.
    func activate(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(TPMActivationRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .manage)
        guard let credential = Data(base64Encoded: body.credential), let secret = Data(base64Encoded: body.encryptedSecret),
              (1...1024).contains(credential.count), (1...1024).contains(secret.count) else {
            throw ServiceRefusal.badRequest("credential and encryptedSecret must be base64 of at most 1024 bytes")
        }
        guard let identity = try await Self.blocking({ try tpmIdentity(target) }) else {
            throw AuthError(.notSupported, "the device identity key is not in a TPM (fpbridged runs without --tpm)")
        }
        let released = try await Self.blocking {
            try TPMDeviceIdentity.tpm { () throws(TPMError) in
                try TPMEndorsement(identity: identity.tpm.tpm).activate(credential: Array(credential), encryptedSecret: Array(secret),
                                                                     key: identity.key)
            }
        }
        return JSONBodies.ok(TPMActivationResult(secret: Data(released).base64EncodedString()))
    }

    /// The TPM identity of `target`'s state directory, made on first use; nil without `--tpm`.
    private func tpmIdentity(_ target: RequestTarget) throws -> (tpm: TPMDeviceIdentity, key: TPMIdentityKey.Wrapped)? {
        guard let tcti = service.tpm else { return nil }
        let identity = TPMDeviceIdentity(tcti: tcti, directory: target.stateDirectory)
        // Made (under the state lock) by the vault when missing.
        if try identity.wrapped() == nil { _ = try context(target, reader: nil, configuration: try target.configuration()).keys(protection: .service).identity() }
        guard let key = try identity.wrapped() else { throw AuthError(.stateDamaged, "the TPM's identity key was not made") }
        return (identity, key)
    }
}
