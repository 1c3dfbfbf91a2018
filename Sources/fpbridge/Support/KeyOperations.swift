import FPAuthentication
import FPLocalAPIEngine
import FPServiceClient
import FPTerminal
import FingerprintLogin
import FoundationEssentials
import Glibc

/// The key operations of the command line, through `fpbridged` or in-process (development
/// mode): `fpbridge key` and the login keys of `fpbridge account` share them.
struct KeyOperations: DeviceKeyring {
    let options: GlobalOptions

    /// The vault of the command's user; every rule about keys lives there.
    static func vault(_ options: GlobalOptions, reader: (any FingerprintReader)? = nil) throws -> KeyVault {
        AuthenticationContext(environment: try ReaderSession.environment(options, reader: reader)).keys(protection: .development)
    }

    func create(label: String, accessControl: KeyAccessControl) async throws -> KeyResult {
        if let socket = try options.serviceSocket() {
            let request = ServiceSession.target(KeyCreateRequest(label: label, accessControl: accessControl), options)
            return try await ServiceClient.with(socket: socket) { try await $0.post("keys", request) }
        }
        let vault = try Self.vault(options)
        let key = try vault.create(label: label, accessControl: accessControl)
        return KeyResult(protection: .development, key: WireKey(key), identityKeyPem: try vault.identity())
    }

    func describe(label: String) async throws -> KeyResult {
        if let socket = try options.serviceSocket() {
            let query = ServiceSession.query(options).merging(["label": label]) { $1 }
            return try await ServiceClient.with(socket: socket) { try await $0.get("keys/attestation", query: query) }
        }
        let vault = try Self.vault(options)
        return KeyResult(protection: .development, key: WireKey(try vault.describe(label: label)), identityKeyPem: try vault.identity())
    }

    func delete(label: String) async throws {
        if let socket = try options.serviceSocket() {
            let request = ServiceSession.target(KeyLabelRequest(label: label), options)
            let _: JSONValue = try await ServiceClient.with(socket: socket) { try await $0.post("keys/delete", request) }
        } else {
            try Self.vault(options).delete(label: label)
        }
    }

    /// Signs after the evaluation, its events on the terminal; Enter takes the fallback once
    /// offered, unless passcodes come from standard input.
    func sign(label: String, data: Data, reason: String, passcodeStdin: Bool) async throws -> WireSignature {
        let console = options.console
        if let socket = try options.serviceSocket() {
            let request = ServiceSession.target(KeySignRequest(label: label, data: data, reason: reason), options)
            console.note(reason)
            let value = try await ServiceClient.with(socket: socket) { client in
                try await ServiceSession.run(client, "keys/sign", request, console: console,
                                             prompt: TerminalPrompt(fromStandardInput: passcodeStdin), fallbackKey: !passcodeStdin)
            }
            return try ServiceSession.decode(value, as: WireSignature.self)
        }
        return try await ReaderSession.with(options, required: false) { reader in
            let vault = try Self.vault(options, reader: reader)
            let context = vault.context
            let key = passcodeStdin ? nil : FallbackKey.start { context.chooseFallback() }
            defer { key?.stop() }
            let prompt = TerminalPrompt(fromStandardInput: passcodeStdin, fallbackKey: key)
            console.note(reason)
            return WireSignature(try await Evaluation.run(context, console: console, fallbackKey: key != nil) {
                try await vault.sign(label: label, data: data, reason: reason, prompt: prompt)
            }, protection: .development)
        }
    }

    // MARK: DeviceKeyring, for the login keys of `fpbridge account`

    func key(label: String) async throws -> DeviceKey? {
        do { return DeviceKey(try await describe(label: label)) } catch let error as AuthError where error.code == .notFound {
            return nil
        }
    }

    func createKey(label: String) async throws -> DeviceKey {
        DeviceKey(try await create(label: label, accessControl: .biometryCurrentSet))
    }

    func deleteKey(label: String) async throws {
        do { try await delete(label: label) } catch let error as AuthError where error.code == .notFound {}
    }

    func sign(label: String, data: Data, reason: String) async throws -> DeviceSignature {
        let signed = try await sign(label: label, data: data, reason: reason, passcodeStdin: true)
        guard let signature = Data(base64Encoded: signed.signatureBase64) else {
            throw AuthError(.readerFailure, "the signature is not base64")
        }
        return DeviceSignature(counter: signed.counter, signature: signature)
    }

    /// Through fpbridged only: an in-process vault's identity key is never in a TPM.
    func activateTPMCredential(_ challenge: TPMCredentialChallenge) async throws -> String {
        guard let socket = try options.serviceSocket() else {
            throw AuthError(.notSupported, "the development identity key is not in a TPM")
        }
        let request = ServiceSession.target(TPMActivationRequest(credential: challenge.credential, encryptedSecret: challenge.encryptedSecret), options)
        let result: TPMActivationResult = try await ServiceClient.with(socket: socket) { try await $0.post("identity/activate", request) }
        return result.secret
    }
}
