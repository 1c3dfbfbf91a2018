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
