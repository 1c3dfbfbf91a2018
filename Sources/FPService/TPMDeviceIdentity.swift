import Crypto
import FPAuthentication
import FPStore
import FPTPM
import Foundation

/// The device identity key in the TPM (fpbridged `--tpm`): made there on first use, kept in
/// `service/tpm-identity.json` only as the TPM wrapped it.
package struct TPMDeviceIdentity: DeviceIdentityKey {
    let tpm: TPMIdentityKey
    let file: TPMIdentityFile

    init(tcti: String, directory: StateDirectory) {
        tpm = TPMIdentityKey(tcti: tcti)
        file = TPMIdentityFile(directory: directory)
    }

    package func publicKey(create: Bool) throws(AuthError) -> P256.Signing.PublicKey? {
        if let key = try wrapped() { return try Self.tpm { () throws(TPMError) in try key.publicKey() } }
        guard create else { return nil }
        let key = try Self.tpm { () throws(TPMError) in try tpm.create() }
        do {
            try file.write(TPMIdentityFile.Record(publicArea: Data(key.publicArea), wrappedPrivate: Data(key.wrappedPrivate), auth: Data(key.auth)))
        } catch {
            throw AuthError(error)
        }
        return try Self.tpm { () throws(TPMError) in try key.publicKey() }
    }

    package func signature(for data: Data) throws(AuthError) -> Data {
        guard let key = try wrapped() else { throw AuthError(.stateDamaged, "\(file.path) is missing: the TPM's identity key was not made") }
        return try Self.tpm { () throws(TPMError) in try tpm.sign(Array(data), with: key) }
    }

    /// The stored key, for the TPM's other commands (the endorsement evidence, activation).
    func wrapped() throws(AuthError) -> TPMIdentityKey.Wrapped? {
        let record: TPMIdentityFile.Record?
        do { record = try file.read() } catch { throw AuthError(error) }
        return record.map { TPMIdentityKey.Wrapped(publicArea: Array($0.publicArea), wrappedPrivate: Array($0.wrappedPrivate), auth: Array($0.auth)) }
    }

    /// Why the TPM at `tcti` cannot hold the identity key; nil when it can.
    package static func problem(tcti: String) -> String? {
        do { try TPMIdentityKey(tcti: tcti).probe() } catch { return error.description }
        return nil
    }

    /// `body`, with a TPM's failure as the engine's error.
    static func tpm<T>(_ body: () throws(TPMError) -> T) throws(AuthError) -> T {
        do { return try body() } catch { throw AuthError(.readerFailure, "the TPM: \(error)") }
    }
}
