import Crypto
import FPStore
import FoundationEssentials

/// Keys released by a match: the Linux counterpart of a Secure Enclave key
/// with `SecAccessControl`.
///
/// Each key is a P-256 key pair of the context's user, named by a label and
/// made with a `KeyAccessControl`. Its private key is kept sealed under the
/// state directory's master key and signs only inside ``sign(label:data:reason:prompt:options:)``,
/// right after the evaluation its access control demands succeeded through the
/// same engine, counters and lockouts as any other. Each new key is attested by
/// the device identity key (``KeyAttestation``). The rules live in `KeyRules`.
///
/// Get one with ``AuthenticationContext/keys(protection:)``.
public struct KeyVault: Sendable {
    /// The context whose user, reader and state directory are used.
    public let context: AuthenticationContext
    /// Who guards the private keys, as attestations state it.
    public let protection: KeyProtection

    /// The most data one signature covers, in bytes.
    public static let maximumDataSize = 1 << 20

    /// The most keys one user may hold: a quota, so that no user of a shared service can fill
    /// its disk with keys (each is a file) and leave nothing for anyone else's enrollment.
    public static let maximumKeysPerUser = 64

    package init(context: AuthenticationContext, protection: KeyProtection) {
        self.context = context
        self.protection = protection
    }

    var environment: AuthEnvironment { context.environment }
    var user: String { environment.user }
    var store: KeyStore { KeyStore(directory: environment.stateDirectory) }
    var rules: KeyRules { KeyRules(context: context) }

    /// Makes a key for the context's user, attested by the device identity key.
    ///
    /// `biometryCurrentSet` and `biometryAny` need a passcode and at least one
    /// enrolled print; `userPresence` and `devicePasscode` need a passcode.
    /// - Throws: `AuthErrorCode.invalidInput` (a label that cannot name a file, or the user holds
    ///   ``maximumKeysPerUser`` keys already),
    ///   `AuthErrorCode.alreadyEnrolled` (the label exists), `AuthErrorCode.passcodeNotSet`,
    ///   `AuthErrorCode.biometryNotEnrolled`, `AuthErrorCode.stateDamaged`.
    public func create(label: String, accessControl: KeyAccessControl) throws(AuthError) -> KeyDescription {
        try KeyDescription(try create(label: label, accessControl: accessControl, passkey: nil), path: try path(label))
    }

    /// ``create(label:accessControl:)`` for a key of the API (`passkey` nil) or a passkey: one
    /// path for both, so that the quota, the rules and the attestation are the same.
    func create(label: String, accessControl: KeyAccessControl, passkey: PasskeyFields?) throws(AuthError) -> KeyRecord {
        _ = try path(label)
        let key = P256.Signing.PrivateKey()
        let createdAt = Int64(Date().timeIntervalSince1970 * 1000)
        let statement = KeyAttestation.Statement(
            format: KeyAttestation.format, publicKey: key.publicKey.x963Representation.base64EncodedString(),
            user: user, label: label, accessControl: accessControl.rawValue, createdAt: createdAt,
            serviceVersion: FPBridgeVersion.current, protection: protection.rawValue)
        // Signed before the state's lock, which is held only for reads and writes
        // (architecture.md): with a TPM the signature is a session, the storage key made again
        // and a signing, slow enough to hold up every other request on this state meanwhile. A
        // key refused under the lock (its label taken, the quota, no print) costs one signature
        // and stores nothing.
        let attestation = try attest(statement)
        let record: KeyRecord = try locked {
            // A damaged file of that label is an error here too: never overwritten.
            if try store.record(user: user, label: label) != nil {
                throw AuthError(.alreadyEnrolled, "\(user) already has a key labelled '\(label)'; delete it first to make a new one",
                                cause: .keyLabelTaken)
            }
            if try store.labels(user: user).count >= Self.maximumKeysPerUser {
                throw AuthError(.invalidInput, "\(user) already has \(Self.maximumKeysPerUser) keys, the most one user may hold; "
                                + "delete one to make another")
            }
            let hash = try environment.prints.enrollmentStateHash(user: user)
            if let problem = rules.creationProblem(accessControl, hash: hash) { throw problem }
            var record = KeyRecord(user: user, label: label, accessControl: accessControl.rawValue, createdAt: createdAt,
                                   publicKey: key.publicKey.x963Representation,
                                   encryptedPrivateKey: try store.seal(key, user: user, label: label),
                                   enrollmentStateHash: hash,
                                   attestationStatement: attestation.statement, attestationSignature: attestation.signature)
            record.passkey = passkey
            try store.save(record)
            return record
        }
        return record
    }

    /// The device identity's signature over `statement`, made outside the state's lock. Only
    /// making the identity (its first use) takes the lock, so that two first keys make one.
    func attest(_ statement: KeyAttestation.Statement) throws(AuthError) -> KeyAttestation {
        if let identity = environment.deviceIdentity {
            if try identity.publicKey(create: false) == nil {
                _ = try locked { try identity.publicKey(create: true) }
            }
            return try KeyAttestation.make(statement, identity: identity)
        }
        // The software identity is sealed under the master key; opened (or made) under the lock.
        let identity = try locked { try ServiceKeys(directory: environment.stateDirectory).identityKey() }
        return try KeyAttestation.make(statement, identity: identity)
    }

    /// The user's keys, public data only, by label.
    /// - Throws: `AuthErrorCode.stateDamaged` naming the first key file that cannot be read.
    public func list() throws(AuthError) -> [KeyDescription] {
        let records: [KeyRecord]
        do { records = try store.records(user: user) } catch { throw AuthError(error) }
        var keys: [KeyDescription] = []
        for record in records { keys.append(try KeyDescription(record, path: try path(record.label))) }
        return keys
    }

    /// One key's public data.
    /// - Throws: `AuthErrorCode.notFound`, `AuthErrorCode.invalidInput`, `AuthErrorCode.stateDamaged`.
    public func describe(label: String) throws(AuthError) -> KeyDescription {
        try KeyDescription(try load(label), path: try path(label))
    }

    /// Deletes a key; a damaged key file may be deleted too (that is the way out of it).
    /// - Throws: `AuthErrorCode.notFound` when the user has no key of that label, `AuthErrorCode.invalidInput`.
    public func delete(label: String) throws(AuthError) {
        _ = try path(label)
        let deleted = try locked { try store.delete(user: user, label: label) }
        guard deleted else { throw notFound(label) }
    }

    /// The device identity's public key (SPKI PEM), which verifies every attestation;
    /// made on first use.
    /// - Throws: `AuthErrorCode.stateDamaged` when `service/` cannot be used.
    public func identity() throws(AuthError) -> String {
        if let identity = environment.deviceIdentity {
            if let key = try identity.publicKey(create: false) { return key.pemRepresentation }
            return try locked { () throws(AuthError) -> String in
                guard let key = try identity.publicKey(create: true) else { throw AuthError(.stateDamaged, "the device identity key was not made") }
                return key.pemRepresentation
            }
        }
        let service = ServiceKeys(directory: environment.stateDirectory)
        do {
            if let key = try service.identityPublicKey() { return key.pemRepresentation }
        } catch {
            throw AuthError(error)
        }
        return try locked { try service.identityKey().publicKey.pemRepresentation }
    }

    // MARK: - Shared with signing

    /// The key's file; validates the label.
    func path(_ label: String) throws(AuthError) -> String {
        do { return try store.path(user: user, label: label) } catch { throw AuthError(error) }
    }

    /// The key's record, or notFound.
    func load(_ label: String) throws(AuthError) -> KeyRecord {
        do {
            guard let record = try store.record(user: user, label: label) else { throw notFound(label) }
            return record
        } catch {
            throw AuthError(error)
        }
    }

    func notFound(_ label: String) -> AuthError {
        AuthError(.notFound, "\(user) has no key labelled '\(label)'")
    }

    /// Runs `body` holding the state lock; every error becomes an `AuthError`.
    func locked<T>(_ body: () throws -> T) throws(AuthError) -> T {
        do { return try store.withLock(body) } catch { throw AuthError(error) }
    }
}
