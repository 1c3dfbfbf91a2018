import Crypto
import FoundationEssentials

/// The service's own secrets under `service/`: the master key that seals every
/// private key at rest (`master.key`, 32 bytes, 0600) and the device identity
/// key that attests new keys (`identity.json`, sealed under the master key).
///
/// Both are made on first use. Making them must not race with another process
/// making them too, so every call that may create one runs inside the state lock.
package struct ServiceKeys: Sendable {
    let directory: StateDirectory

    package init(directory: StateDirectory) {
        self.directory = directory
    }

    /// Where the master key lives.
    package var masterKeyPath: String { directory.file("service", "master.key") }
    /// Where the device identity lives.
    package var identityPath: String { directory.file("service", "identity.json") }

    static let masterKeyLength = 32

    /// The master key. When the file is missing, `create` makes one (inside the
    /// state lock); otherwise a missing file is damage, since sealed keys exist.
    package func masterKey(create: Bool) throws(StoreError) -> SymmetricKey {
        try directory.checkRoot()
        if var bytes = try AtomicFile.read(masterKeyPath) {
            defer { bytes.wipe() }
            guard bytes.count == Self.masterKeyLength else {
                throw .damaged(path: masterKeyPath, reason: "holds \(bytes.count) bytes, not a \(Self.masterKeyLength)-byte key")
            }
            return SymmetricKey(data: bytes)
        }
        guard create else {
            throw .damaged(path: masterKeyPath, reason: "is missing, so no stored private key can be opened")
        }
        let key = SymmetricKey(size: .bits256)
        var bytes = key.withUnsafeBytes { Data($0) }
        defer { bytes.wipe() }
        try AtomicFile.write(bytes, to: masterKeyPath)
        return key
    }

    /// The device identity's private key, made on first use; call inside the state lock.
    package func identityKey() throws(StoreError) -> P256.Signing.PrivateKey {
        if let record = try identityRecord() {
            var raw = try SealedSecret.open(record.encryptedPrivateKey, under: try masterKey(create: false),
                                            owner: DeviceIdentityRecord.sealingOwner, path: identityPath)
            defer { raw.wipe() }
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: raw),
                  key.publicKey.x963Representation == record.publicKey
            else { throw .damaged(path: identityPath, reason: "its private key does not belong to its public key") }
            return key
        }
        let key = P256.Signing.PrivateKey()
        var raw = key.rawRepresentation
        defer { raw.wipe() }
        let sealed = try SealedSecret.seal(raw, under: try masterKey(create: true), owner: DeviceIdentityRecord.sealingOwner)
        let record = DeviceIdentityRecord(format: DeviceIdentityRecord.currentFormat, publicKey: key.publicKey.x963Representation,
                                          encryptedPrivateKey: sealed, createdAt: Int64(Date().timeIntervalSince1970 * 1000))
        try AtomicFile.write(StateCoding.encode(record), to: identityPath)
        return key
    }

    /// The device identity's public key without opening the private one; nil before the first key was made.
    package func identityPublicKey() throws(StoreError) -> P256.Signing.PublicKey? {
        guard let record = try identityRecord() else { return nil }
        guard let key = try? P256.Signing.PublicKey(x963Representation: record.publicKey) else {
            throw .damaged(path: identityPath, reason: "its public key is not a P-256 point")
        }
        return key
    }

    private func identityRecord() throws(StoreError) -> DeviceIdentityRecord? {
        try directory.checkRoot()
        guard let data = try AtomicFile.read(identityPath) else { return nil }
        let record = try StateCoding.decode(DeviceIdentityRecord.self, from: data, path: identityPath)
        guard record.format == DeviceIdentityRecord.currentFormat else {
            throw .damaged(path: identityPath, reason: "unknown format version \(record.format)")
        }
        guard record.encryptedPrivateKey.count == SealedSecret.sealedKeyLength else {
            throw .damaged(path: identityPath, reason: "the sealed private key is \(record.encryptedPrivateKey.count) bytes long")
        }
        return record
    }
}
