import FoundationEssentials

/// `service/tpm-identity.json`: the device identity key that lives in a TPM (fpbridged `--tpm`),
/// as the TPM handed it out: its public area, its private part encrypted by the TPM's storage
/// key (which no other TPM can load) and its authorisation value. Written 0600, atomically.
package struct TPMIdentityFile: Sendable {
    /// The file's contents.
    package struct Record: Sendable, Hashable, Codable {
        static let currentFormat = 1
        var format: Int
        /// TPMT_PUBLIC.
        package var publicArea: Data
        /// TPM2B_PRIVATE, wrapped by the TPM.
        package var wrappedPrivate: Data
        /// The key's authorisation value.
        package var auth: Data
        /// Milliseconds since 1970 when the key was made.
        package var createdAt: Int64

        /// A record of this key.
        package init(publicArea: Data, wrappedPrivate: Data, auth: Data) {
            format = Self.currentFormat
            self.publicArea = publicArea
            self.wrappedPrivate = wrappedPrivate
            self.auth = auth
            createdAt = Int64(Date().timeIntervalSince1970 * 1000)
        }
    }

    let directory: StateDirectory

    /// The file of `directory`.
    package init(directory: StateDirectory) { self.directory = directory }

    /// Where it lives.
    package var path: String { directory.file("service", "tpm-identity.json") }

    /// The stored key; nil before one was made.
    package func read() throws(StoreError) -> Record? {
        try directory.checkRoot()
        guard let data = try AtomicFile.read(path) else { return nil }
        let record = try StateCoding.decode(Record.self, from: data, path: path)
        guard record.format == Record.currentFormat else { throw .damaged(path: path, reason: "unknown format version \(record.format)") }
        return record
    }

    /// Stores `record`; call inside the state lock.
    package func write(_ record: Record) throws(StoreError) {
        try directory.checkRoot()
        try AtomicFile.write(StateCoding.encode(record), to: path)
    }
}
