import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation

/// What an operator does to the server's database directly (`fpbridge-server device …`):
/// register the device identities it trusts, hand out one-time binding codes.
package struct AccountAdministration: Sendable {
    private let store: AccountStore

    /// Opens (and migrates) the database of `configuration`, runs `body`, closes it.
    package static func with<T: Sendable>(_ database: ServerConfiguration.Database,
                                          _ body: (AccountAdministration) async throws -> T) async throws -> T {
        let opened: any SQLDatabase
        switch database {
        case .sqlite(let path): opened = try SQLiteDatabase(path: path)
        case .postgres(let url): opened = try PostgresDatabase(url: url, logger: .init(label: "fpbridge-server"))
        }
        do {
            try await Schema.migrate(opened)
            let result = try await body(AccountAdministration(store: AccountStore(database: opened)))
            await opened.close()
            return result
        } catch {
            await opened.close()
            throw error
        }
    }

    /// A registered identity.
    package struct TrustedIdentity: Sendable {
        /// The name the administrator gave it.
        package let name: String
        /// The id of its identity key (``KeyIdentifiers/identityId(_:)``): the machine's, not one
        /// of its local users' device ids.
        package let deviceId: String
        /// The local users it is trusted for; empty for every local user of that machine.
        package let localUsers: [String]
        /// The key, PEM.
        package let identityKey: String
        /// When it was registered (milliseconds since 1970).
        package let addedAt: Int64
    }

    /// Registers the identity key in `pem` under `name`; its device id, and whether it was new.
    /// `localUsers` limits the trust to those local users of the machine (empty: every one of them).
    package func trust(pem: String, name: String, localUsers: [String] = []) async throws -> (deviceId: String, added: Bool) {
        let key = try Self.identity(pem)
        guard case .success(let name) = PromptText.checked(name, field: "--name", length: AccountLimits.deviceNameLength) else {
            throw ServerStartFailure(message: "--name must be 1 to 100 visible characters")
        }
        if let bad = localUsers.first(where: { !AccountLimits.isLocalUser($0) }) {
            throw ServerStartFailure(message: "--local-user '\(bad.prefix(64))' is not a local user name (1 to 64 characters, "
                                     + "no spaces, '/' or control characters)")
        }
        return (KeyIdentifiers.identityId(key), try await store.trust(identityKey: key.pemRepresentation, name: name,
                                                                      localUsers: Array(Set(localUsers)).sorted()))
    }

    /// Removes the identity key in `pem`; its device id, and whether it was registered.
    package func distrust(pem: String) async throws -> (deviceId: String, removed: Bool) {
        let key = try Self.identity(pem)
        return (KeyIdentifiers.identityId(key), try await store.distrust(identityKey: key.pemRepresentation))
    }

    /// Every registered identity, oldest first.
    package func trusted() async throws -> [TrustedIdentity] {
        try await store.trustedIdentities().map { entry in
            let deviceId = (try? P256.Signing.PublicKey(pemRepresentation: entry.identityKey)).map(KeyIdentifiers.identityId) ?? "?"
            return TrustedIdentity(name: entry.name, deviceId: deviceId, localUsers: entry.localUsers, identityKey: entry.identityKey,
                                   addedAt: entry.addedAt)
        }
    }

    /// A one-time binding code for `username`, valid `seconds`; only its digest is stored.
    package func bindingCode(username: String, seconds: Int) async throws -> String {
        guard AccountLimits.isUsername(username) else {
            throw ServerStartFailure(message: "--user must be 1 to 64 letters, digits, '.', '_', '-' or '@'")
        }
        let code = RandomTokens.make(bytes: 16)
        try await store.insertBindingCode(digest: RandomTokens.digest(code), username: username,
                                          expiresAt: Clock.milliseconds() + Int64(seconds) * 1000)
        return code
    }

    private static func identity(_ pem: String) throws -> P256.Signing.PublicKey {
        guard pem.utf8.count < 4096, let key = try? P256.Signing.PublicKey(pemRepresentation: pem) else {
            throw ServerStartFailure(message: "not a P-256 public key in PEM (the device's identity key: "
                                     + "'fpbridge key identity' prints it on the device)")
        }
        return key
    }
}
