import FPAuthentication
import FPLocalAPI
import FoundationEssentials

extension WireKey {
    /// A key's public description as the vault gives it.
    package init(_ key: KeyDescription) {
        self.init(label: key.label, user: key.user, accessControl: key.accessControl, createdAt: key.createdAt,
                  publicKeyPem: key.publicKeyPEM, publicKeyJwk: key.publicKeyJWK, counter: key.counter,
                  invalidated: key.invalidated, statementBase64: key.attestation.statement.base64EncodedString(),
                  signatureBase64: key.attestation.signature.base64EncodedString())
    }
}

extension WireSignature {
    /// A signature as the vault made it, with who holds the key.
    package init(_ signature: KeySignature, protection: KeyProtection) {
        self.init(label: signature.label, user: signature.user, counter: signature.counter, method: signature.method,
                  signatureBase64: signature.signature.base64EncodedString(),
                  messageBase64: signature.message.base64EncodedString(), protection: protection)
    }
}
