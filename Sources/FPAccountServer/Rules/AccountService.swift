import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation

/// Every rule of the login server, in one place: the routes only decode and encode,
/// the store only runs the statements these rules choose.
struct AccountService: Sendable {
    let configuration: ServerConfiguration
    let store: AccountStore
    let passwords: PasswordHasher
    let keys = PublicKeyCache()
    let origin: Origin
    /// ``ServerConfiguration/trustedProxies`` in canonical form.
    let trustedProxies: Set<String>
    /// The TPM makers' CAs; nil when none is configured (or they do not parse: ``ServerConfiguration/problems()`` says so).
    let tpm: TPMTrust?

    init(configuration: ServerConfiguration, database: any SQLDatabase, origin: Origin) {
        self.configuration = configuration
        self.origin = origin
        trustedProxies = Set(configuration.trustedProxies.compactMap(ClientAddress.canonical))
        store = AccountStore(database: database)
        passwords = PasswordHasher(costLog2: configuration.passwordCostLog2)
        tpm = (try? TPMTrust(pems: configuration.tpmCertificateAuthorities)) ?? nil
    }

    /// Who a request's bearer token belongs to; `unauthorized` without a valid one.
    func session(bearer: String?) async throws -> SessionInfo {
        guard let bearer, !bearer.isEmpty, bearer.count <= 100,
              let session = try await store.session(digest: RandomTokens.digest(bearer), now: Clock.milliseconds()) else {
            throw AccountError(.unauthorized, "log in first: this needs a valid session token (Authorization: Bearer …)")
        }
        return session
    }

    /// A new session token for `username`, kept only as its digest.
    func issueSession(_ username: String, kind: String, seconds: Int, audit: AuditRecord) async throws -> SessionToken {
        let token = RandomTokens.make()
        let expiresAt = Clock.milliseconds() + Int64(seconds) * 1000
        try await store.insertSession(digest: RandomTokens.digest(token), username: username, kind: kind, expiresAt: expiresAt, audit: audit)
        return SessionToken(token: token, kind: kind, username: username, expiresAt: expiresAt)
    }

    /// Refuses with `rateLimited` when any of `hits` is over its limit.
    func checkLimits(_ hits: [Int64], _ limits: [Int], what: String) throws {
        guard zip(hits, limits).contains(where: { $0 > Int64($1) }) else { return }
        let retryAfter = 60 - Int(Clock.milliseconds() % 60_000 / 1000)
        throw AccountError(.rateLimited, "too many \(what) in this minute; try again in \(retryAfter) s", retryAfter: retryAfter)
    }

    /// Refuses with `rateLimited` when an address has used up this minute's budget of
    /// failures that cost nobody else anything (bad signatures, wrong pairing codes): read
    /// without counting, since only a failure, hit afterwards, spends it.
    func refuseSpentFailures(_ keys: [String], what: String) async throws {
        try checkLimits(try await store.hits(keys), keys.map { _ in configuration.badSignaturesPerAddress - 1 }, what: what)
    }

    /// `text` checked as an id the server made (base64url, at most 64 characters).
    func identifier(_ text: String, _ field: String) throws -> String {
        guard (1...64).contains(text.count), KeyIdentifiers.bytes(base64URL: text) != nil else {
            throw AccountError(.invalidRequest, "'\(field)' is not an id this server issues")
        }
        return text
    }

    func username(_ text: String) throws -> String {
        guard AccountLimits.isUsername(text) else {
            throw AccountError(.invalidRequest, "'username' must be 1 to 64 letters, digits, '.', '_', '-' or '@'")
        }
        return text
    }
}
