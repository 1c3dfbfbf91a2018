import FPAccountAPI
import FPVocabulary
import Foundation

/// A key as a server needs it to bind the device: the public parts and the attestation.
public struct DeviceKey: Sendable, Hashable {
    /// The key, SubjectPublicKeyInfo PEM.
    public let publicKeyPEM: String
    /// The device identity key that attested it, SubjectPublicKeyInfo PEM.
    public let identityKeyPEM: String
    /// The attestation statement's exact bytes.
    public let attestationStatement: Data
    /// The identity key's signature over them (DER).
    public let attestationSignature: Data
    /// When the identity key lives in a TPM (`fpbridged --tpm`): what names that TPM.
    public let tpm: TPMEvidence?

    /// A key with its attestation.
    public init(publicKeyPEM: String, identityKeyPEM: String, attestationStatement: Data, attestationSignature: Data,
                tpm: TPMEvidence? = nil) {
        self.publicKeyPEM = publicKeyPEM
        self.identityKeyPEM = identityKeyPEM
        self.attestationStatement = attestationStatement
        self.attestationSignature = attestationSignature
        self.tpm = tpm
    }
}

/// A signature made after the evaluation the key demands.
public struct DeviceSignature: Sendable, Hashable {
    /// The key's counter in this signature.
    public let counter: UInt64
    /// ECDSA P-256/SHA-256, DER.
    public let signature: Data

    /// A signature and its counter.
    public init(counter: UInt64, signature: Data) {
        self.counter = counter
        self.signature = signature
    }
}

/// Where the device's login keys live and sign: `fpbridged` (``ServiceKeyring``), an
/// in-process development context (`ContextKeyring`, in the `FingerprintLoginInProcess` product),
/// or a test's own.
public protocol DeviceKeyring: Sendable {
    /// The key with this label, nil when there is none.
    func key(label: String) async throws -> DeviceKey?
    /// A new key that signs only after a fingerprint match and is invalidated when the
    /// user's enrolled prints change (`biometryCurrentSet`).
    func createKey(label: String) async throws -> DeviceKey
    /// Deletes the key; no error when there is none.
    func deleteKey(label: String) async throws
    /// Signs `data` after the evaluation, `reason` shown in the prompt.
    func sign(label: String, data: Data, reason: String) async throws -> DeviceSignature
    /// The secret the device's TPM releases from a server's credential for the identity key
    /// (base64); only a keyring whose keys carry ``DeviceKey/tpm`` has one.
    func activateTPMCredential(_ challenge: TPMCredentialChallenge) async throws -> String
}

extension DeviceKeyring {
    /// No TPM: `notSupported`.
    public func activateTPMCredential(_ challenge: TPMCredentialChallenge) async throws -> String {
        throw AuthError(.notSupported, "this keyring's identity key is not in a TPM")
    }
}
