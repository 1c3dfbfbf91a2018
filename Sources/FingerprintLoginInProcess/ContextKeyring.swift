import FPAuthentication
import FingerprintLogin
import Foundation

/// Login keys in an in-process context's state directory: development mode, for the fake
/// reader and tests. The private keys are the caller's own files, so their attestations
/// say `development`, and a server accepts them only when told to.
public struct ContextKeyring: DeviceKeyring {
    /// The vault the keys live in.
    public let vault: KeyVault

    /// The development keyring of `context`.
    public init(context: AuthenticationContext) {
        vault = context.keys(protection: .development)
    }

    public func key(label: String) async throws -> DeviceKey? {
        do { return DeviceKey(try vault.describe(label: label), identity: try vault.identity()) } catch where error.code == .notFound {
            return nil
        }
    }

    public func createKey(label: String) async throws -> DeviceKey {
        DeviceKey(try vault.create(label: label, accessControl: .biometryCurrentSet), identity: try vault.identity())
    }

    public func deleteKey(label: String) async throws {
        do { try vault.delete(label: label) } catch where error.code == .notFound {}
    }

    public func sign(label: String, data: Data, reason: String) async throws -> DeviceSignature {
        let signed = try await vault.sign(label: label, data: data, reason: reason, prompt: NoPasscodePrompt())
        return DeviceSignature(counter: signed.counter, signature: signed.signature)
    }
}

extension DeviceKey {
    /// A vault's key and its identity key.
    package init(_ key: KeyDescription, identity: String) {
        self.init(publicKeyPEM: key.publicKeyPEM, identityKeyPEM: identity,
                  attestationStatement: key.attestation.statement, attestationSignature: key.attestation.signature)
    }
}
