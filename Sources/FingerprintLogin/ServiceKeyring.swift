import FPVocabulary
import FPLocalAPI
import FPServiceClient
import Foundation

/// Login keys held by `fpbridged`: the private key never leaves the service, and each
/// signature needs a fingerprint match there.
public struct ServiceKeyring: DeviceKeyring {
    /// The service's socket.
    public let socket: String

    /// The keyring of the service at `socket` (default: the system socket).
    public init(socket: String = "/run/fpbridge/fpbridged.sock") {
        self.socket = socket
    }

    public func key(label: String) async throws -> DeviceKey? {
        do {
            let result: KeyResult = try await ServiceClient.with(socket: socket) {
                try await $0.get("keys/attestation", query: ["label": label])
            }
            return DeviceKey(result)
        } catch let error as AuthError where error.code == .notFound {
            return nil
        }
    }

    public func createKey(label: String) async throws -> DeviceKey {
        let result: KeyResult = try await ServiceClient.with(socket: socket) {
            try await $0.post("keys", KeyCreateRequest(label: label, accessControl: .biometryCurrentSet))
        }
        return DeviceKey(result)
    }

    public func deleteKey(label: String) async throws {
        do {
            let _: JSONValue = try await ServiceClient.with(socket: socket) { try await $0.post("keys/delete", KeyLabelRequest(label: label)) }
        } catch let error as AuthError where error.code == .notFound {}
    }

    public func sign(label: String, data: Data, reason: String) async throws -> DeviceSignature {
        let value = try await ServiceClient.with(socket: socket) { client in
            try await client.stream("keys/sign", KeySignRequest(label: label, data: data, reason: reason),
                                    controls: OperationControls(), handler: QuietStreamHandler())
        }
        let signed = try value.decode(as: WireSignature.self)
        guard let signature = Data(base64Encoded: signed.signatureBase64) else {
            throw AuthError(.readerFailure, "the fpbridge service sent a signature that is not base64", cause: .serviceAnswer)
        }
        return DeviceSignature(counter: signed.counter, signature: signature)
    }

    public func activateTPMCredential(_ challenge: TPMCredentialChallenge) async throws -> String {
        let result: TPMActivationResult = try await ServiceClient.with(socket: socket) {
            try await $0.post("identity/activate", TPMActivationRequest(credential: challenge.credential, encryptedSecret: challenge.encryptedSecret))
        }
        return result.secret
    }
}

/// A stream that shows nothing and has no passcode to give (a biometric key never asks).
struct QuietStreamHandler: StreamHandler {
    func event(_ event: AuthEvent) {}
    func enrollment(_ progress: EnrollmentProgress) {}
    func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? { nil }
}

extension DeviceKey {
    /// The key of a service or vault answer.
    package init(_ result: KeyResult) {
        self.init(publicKeyPEM: result.key.publicKeyPem, identityKeyPEM: result.identityKeyPem,
                  attestationStatement: Data(base64Encoded: result.key.statementBase64) ?? Data(),
                  attestationSignature: Data(base64Encoded: result.key.signatureBase64) ?? Data(),
                  tpm: result.tpm.map { TPMEvidence(endorsementCertificate: $0.endorsementCertificate, endorsementKey: $0.endorsementKey,
                                                    identityKey: $0.identityKey) })
    }
}
