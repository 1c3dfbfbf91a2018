import FPAuthentication
import FPLocalAPI
import FoundationEssentials

extension ProofRequestWire {
    /// The engine's request, checked (`invalidInput` names what is wrong).
    package func checked() throws(AuthError) -> ProofRequest {
        guard let purpose = AssertionPayload.Purpose(rawValue: purpose) else {
            throw AuthError(.invalidInput, "unknown proof purpose '\(purpose)'; a kiosk's proof signs 'kiosk-login' (identify-and-prove) or 'kiosk-pin-login' (the PIN pad)")
        }
        return try ProofRequest(purpose: purpose, origin: origin, challenge: challenge)
    }
}

extension WireProof {
    /// An identify-and-prove answer as the engine made it, with the identity key that attests the key.
    package init(_ proof: IdentifiedProof, protection: KeyProtection, identityKeyPem: String) {
        self.init(purpose: proof.payload.purpose.rawValue, origin: proof.payload.origin, challenge: proof.payload.challenge,
                  credentialId: proof.credentialId, label: proof.signature.label, counter: proof.signature.counter,
                  signatureBase64: proof.signature.signature.base64EncodedString(),
                  messageBase64: proof.signature.message.base64EncodedString(), publicKeyPem: proof.key.publicKeyPEM,
                  accessControl: proof.key.accessControl, protection: protection,
                  attestation: WireAttestation(statementBase64: proof.key.attestation.statement.base64EncodedString(),
                                               signatureBase64: proof.key.attestation.signature.base64EncodedString()),
                  identityKeyPem: identityKeyPem)
    }
}
