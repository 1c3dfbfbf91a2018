import FPAuthentication
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

    package init(_ key: KeyDescription) {
        label = key.label
        user = key.user
        accessControl = key.accessControl
        createdAt = key.createdAt
        publicKeyPem = key.publicKeyPEM
        publicKeyJwk = key.publicKeyJWK
        counter = key.counter
        invalidated = key.invalidated
        statementBase64 = key.attestation.statement.base64EncodedString()
        signatureBase64 = key.attestation.signature.base64EncodedString()
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

    package init(protection: KeyProtection, key: WireKey, identityKeyPem: String) {
        self.protection = protection
        self.key = key
        self.identityKeyPem = identityKeyPem
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

    package init(_ signature: KeySignature, protection: KeyProtection) {
        label = signature.label
        user = signature.user
        counter = signature.counter
        method = signature.method
        signatureBase64 = signature.signature.base64EncodedString()
        messageBase64 = signature.message.base64EncodedString()
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
