import FPVocabulary
import FoundationEssentials

/// `POST /v1/keys`: makes a key for the user.
package struct KeyCreateRequest: TargetedRequest {
    package var label: String
    package var accessControl: KeyAccessControl
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(label: String, accessControl: KeyAccessControl) {
        self.label = label
        self.accessControl = accessControl
    }
}

/// `POST /v1/keys/delete`, and the label of `GET /v1/keys/attestation`.
package struct KeyLabelRequest: TargetedRequest {
    package var label: String
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(label: String) { self.label = label }
}

/// `POST /v1/keys/sign`: signs after the evaluation the key's access control demands, streamed.
package struct KeySignRequest: TargetedRequest {
    package var label: String
    package var dataBase64: String
    package var reason: String?
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(label: String, data: Data, reason: String?) {
        self.label = label
        dataBase64 = data.base64EncodedString()
        self.reason = reason
    }
}

/// A key's public description on the wire (never its private part).
package struct WireKey: Codable, Sendable, Hashable {
    package var label: String
    package var user: String
    package var accessControl: KeyAccessControl
    package var createdAt: Int64
    package var publicKeyPem: String
    package var publicKeyJwk: [String: String]
    package var counter: UInt64
    package var invalidated: Bool
    package var statementBase64: String
    package var signatureBase64: String

    package init(label: String, user: String, accessControl: KeyAccessControl, createdAt: Int64, publicKeyPem: String,
                 publicKeyJwk: [String: String], counter: UInt64, invalidated: Bool, statementBase64: String,
                 signatureBase64: String) {
        self.label = label
        self.user = user
        self.accessControl = accessControl
        self.createdAt = createdAt
        self.publicKeyPem = publicKeyPem
        self.publicKeyJwk = publicKeyJwk
        self.counter = counter
        self.invalidated = invalidated
        self.statementBase64 = statementBase64
        self.signatureBase64 = signatureBase64
    }
}

/// The user's keys, and who holds them: `service` or `development`.
package struct KeyList: Codable, Sendable, Hashable {
    package var user: String
    package var protection: KeyProtection
    package var keys: [WireKey]

    package init(user: String, protection: KeyProtection, keys: [WireKey]) {
        self.user = user
        self.protection = protection
        self.keys = keys
    }
}

/// One key with who holds it (create, attest), and the identity key that attests it.
package struct KeyResult: Codable, Sendable, Hashable {
    package var protection: KeyProtection
    package var key: WireKey
    package var identityKeyPem: String
    /// With `fpbridged --tpm`, on `keys/attestation`: what names the TPM the identity key lives in.
    package var tpm: WireTPMEvidence?

    package init(protection: KeyProtection, key: WireKey, identityKeyPem: String, tpm: WireTPMEvidence? = nil) {
        self.protection = protection
        self.key = key
        self.identityKeyPem = identityKeyPem
        self.tpm = tpm
    }
}

/// A signature on the wire: the DER signature, the exact message signed, and the counter in it.
package struct WireSignature: Codable, Sendable, Hashable {
    package var label: String
    package var user: String
    package var counter: UInt64
    package var method: AuthMethod
    package var signatureBase64: String
    package var messageBase64: String
    package var protection: KeyProtection

    package init(label: String, user: String, counter: UInt64, method: AuthMethod, signatureBase64: String,
                 messageBase64: String, protection: KeyProtection) {
        self.label = label
        self.user = user
        self.counter = counter
        self.method = method
        self.signatureBase64 = signatureBase64
        self.messageBase64 = messageBase64
        self.protection = protection
    }
}

/// The device identity key that signs every attestation.
package struct IdentityResult: Codable, Sendable, Hashable {
    package var protection: KeyProtection
    package var identityKeyPem: String

    package init(protection: KeyProtection, identityKeyPem: String) {
        self.protection = protection
        self.identityKeyPem = identityKeyPem
    }
}

/// The TPM the device identity key lives in (fpbridged `--tpm`), as a server checks it: the
/// endorsement key's certificate from the TPM's maker and its public area, and the identity
/// key's public area (its attributes say it never leaves the TPM). All base64.
package struct WireTPMEvidence: Codable, Sendable, Hashable {
    /// The EK certificate, DER.
    package var endorsementCertificate: String
    /// The EK's TPMT_PUBLIC.
    package var endorsementKey: String
    /// The identity key's TPMT_PUBLIC.
    package var identityKey: String

    package init(endorsementCertificate: String, endorsementKey: String, identityKey: String) {
        self.endorsementCertificate = endorsementCertificate
        self.endorsementKey = endorsementKey
        self.identityKey = identityKey
    }
}

/// `POST identity/activate`: a server's credential for the identity key (TPM2_MakeCredential), base64.
package struct TPMActivationRequest: TargetedRequest, Hashable {
    package var credential: String
    package var encryptedSecret: String
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(credential: String, encryptedSecret: String, user: String? = nil, stateDirectory: String? = nil) {
        self.credential = credential
        self.encryptedSecret = encryptedSecret
        self.user = user
        self.stateDirectory = stateDirectory
    }
}

/// The secret the TPM released (base64): proof for the server that the identity key is in that TPM.
package struct TPMActivationResult: Codable, Sendable, Hashable {
    package var secret: String

    package init(secret: String) { self.secret = secret }
}
