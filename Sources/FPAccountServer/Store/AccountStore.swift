import FPAccountAPI

/// Every query of the server, once, for SQLite and PostgreSQL alike. Each method is
/// one transaction; what must hold across instances is one conditional statement.
struct AccountStore: Sendable {
    let database: any SQLDatabase

    // MARK: Accounts and sessions

    /// False when the name is taken.
    func createAccount(_ username: String, passwordHash: String) async throws -> Bool {
        try await !database.run("""
            INSERT INTO accounts (username, password_hash, created_at) VALUES (?, ?, ?)
            ON CONFLICT (username) DO NOTHING RETURNING username
            """, [.text(username), .text(passwordHash), .int(Clock.milliseconds())]).isEmpty
    }

    func passwordHash(_ username: String) async throws -> String? {
        try await database.read("SELECT password_hash FROM accounts WHERE username = ?", [.text(username)]).first?.text(0)
    }

    func insertSession(digest: String, username: String, kind: String, expiresAt: Int64, audit: AuditRecord) async throws {
        _ = try await database.transaction([
            SQLStatement("INSERT INTO tokens (token_hash, username, kind, expires_at) VALUES (?, ?, ?, ?)",
                         [.text(digest), .text(username), .text(kind), .int(expiresAt)]),
            auditStatement(audit),
        ])
    }

    func session(digest: String, now: Int64) async throws -> SessionInfo? {
        guard let row = try await database.read(
            "SELECT username, kind, expires_at FROM tokens WHERE token_hash = ? AND expires_at > ?", [.text(digest), .int(now)]).first,
            let username = row.text(0), let kind = row.text(1), let expiresAt = row.int(2) else { return nil }
        return SessionInfo(username: username, kind: kind, expiresAt: expiresAt)
    }

    // MARK: Devices and credentials

    func deviceIdentity(username: String, deviceId: String) async throws -> String? {
        try await database.read("SELECT identity_key FROM devices WHERE username = ? AND device_id = ?",
                               [.text(username), .text(deviceId)]).first?.text(0)
    }

    /// Binds a new credential to the device (made on first use); the device's earlier
    /// credentials are revoked in the same transaction. False when the key is bound already,
    /// or, with `onlyFirst`, when the account has had a credential (another binding got in
    /// first: the account's row is locked for the transaction, so on PostgreSQL concurrent
    /// first bindings take turns and each sees the one before it).
    func bind(_ binding: DeviceBinding, onlyFirst: Bool, audit: AuditRecord) async throws -> Bool {
        var lock: [SQLStatement] = []
        var condition: (sql: String, arguments: [SQLValue])?
        if onlyFirst {
            lock = [accountLock(binding.username)]
            condition = ("NOT EXISTS (SELECT 1 FROM credentials WHERE username = ?)", [.text(binding.username)])
        }
        let audited = auditStatement(audit)
        let bound = SQLStatement(audited.sql + " WHERE EXISTS (SELECT 1 FROM credentials WHERE credential_id = ? AND username = ?)",
                                 audited.arguments + [.text(binding.credentialId), .text(binding.username)])
        let rows = try await database.transaction(lock + bindStatements(binding, condition: condition) + [bound])
        return !rows[lock.count + 2].isEmpty
    }

    /// Locks the account's row to the end of the transaction (PostgreSQL; SQLite writes one
    /// transaction at a time anyway): what the account's transactions count next, each sees
    /// what the one before it committed.
    func accountLock(_ username: String) -> SQLStatement {
        SQLStatement("UPDATE accounts SET created_at = created_at WHERE username = ?", [.text(username)])
    }

    /// The three statements of a binding: the device (made or renamed), its earlier
    /// credentials revoked, the new credential (returning its id when it was new). Each runs
    /// only where `condition` holds (SQL and its arguments), when there is one.
    func bindStatements(_ binding: DeviceBinding, condition: (sql: String, arguments: [SQLValue])?) -> [SQLStatement] {
        let now = Clock.milliseconds()
        let whereClause = condition.map { " WHERE " + $0.sql } ?? " WHERE 1 = 1"
        let extra = condition?.arguments ?? []
        return [
            SQLStatement("""
                INSERT INTO devices (username, device_id, name, identity_key, local_user, bound_at) SELECT ?, ?, ?, ?, ?, ?\(whereClause)
                ON CONFLICT (username, device_id) DO UPDATE SET name = excluded.name, bound_at = excluded.bound_at
                """, [.text(binding.username), .text(binding.deviceId), .text(binding.name), .text(binding.identityKey),
                      SQLValue(binding.localUser), .int(now)] + extra),
            // Never the key being bound: when it got bound meanwhile (an approval that came
            // after an operator's code bound it), that binding stands.
            SQLStatement("""
                UPDATE credentials SET status = 'revoked'
                WHERE username = ? AND device_id = ? AND status <> 'revoked' AND credential_id <> ?
                \(condition.map { "AND " + $0.sql } ?? "")
                """, [.text(binding.username), .text(binding.deviceId), .text(binding.credentialId)] + extra),
            SQLStatement("""
                INSERT INTO credentials (credential_id, username, device_id, public_key, access_control, protection,
                                         counter, failures, status, created_at, last_used_at)
                SELECT ?, ?, ?, ?, ?, ?, 0, 0, 'active', ?, NULL\(whereClause)
                ON CONFLICT (credential_id) DO NOTHING RETURNING credential_id
                """, [.text(binding.credentialId), .text(binding.username), .text(binding.deviceId), .text(binding.publicKey),
                      .text(binding.accessControl), .text(binding.protection), .int(now)] + extra),
        ]
    }

    /// The user's devices with their newest credential, newest binding first.
    func devices(username: String) async throws -> [BoundDevice] {
        let rows = try await database.read("""
            SELECT d.device_id, d.name, c.credential_id, c.status, c.access_control, c.protection, d.bound_at, c.last_used_at,
                   d.local_user
            FROM devices d JOIN credentials c ON c.username = d.username AND c.device_id = d.device_id
            WHERE d.username = ? AND c.created_at = (
                SELECT MAX(c2.created_at) FROM credentials c2 WHERE c2.username = d.username AND c2.device_id = d.device_id)
            ORDER BY d.bound_at DESC
            """, [.text(username)])
        return rows.compactMap { row in
            guard let deviceId = row.text(0), let name = row.text(1), let credentialId = row.text(2), let status = row.text(3),
                  let accessControl = row.text(4), let protection = row.text(5), let boundAt = row.int(6) else { return nil }
            return BoundDevice(deviceId: deviceId, name: name, credentialId: credentialId, status: status,
                               accessControl: accessControl, protection: protection, boundAt: boundAt, lastUsedAt: row.int(7),
                               localUser: row.text(8))
        }
    }

    /// Revokes every credential of the device; false when the user has no such device.
    func unbind(username: String, deviceId: String, audit: AuditRecord) async throws -> Bool {
        let rows = try await database.transaction([
            SQLStatement("UPDATE credentials SET status = 'revoked' WHERE username = ? AND device_id = ? RETURNING credential_id",
                         [.text(username), .text(deviceId)]),
            SQLStatement("DELETE FROM devices WHERE username = ? AND device_id = ? RETURNING device_id",
                         [.text(username), .text(deviceId)]),
            auditStatement(audit),
        ])
        return !rows[1].isEmpty
    }

    func credential(_ credentialId: String) async throws -> CredentialRow? {
        try await database.read("SELECT \(CredentialRow.columns) FROM credentials WHERE credential_id = ?",
                               [.text(credentialId)]).first.flatMap(CredentialRow.init)
    }

    /// Takes the new counter if it is above the stored one and the credential is active, and
    /// in the same transaction runs `then` only if it did: a statement with `GUARD` (its last
    /// placeholder) has it, which becomes the condition that the credential carries this assertion's id
    /// (the challenge's, never used twice). The rows of the `then` statements, nil when
    /// nothing changed.
    func advanceCounter(_ credentialId: String, to counter: Int64, assertion: String,
                        then: [SQLStatement]) async throws -> [[SQLRow]]? {
        let condition = "EXISTS (SELECT 1 FROM credentials WHERE credential_id = ? AND last_assertion = ?)"
        let guarded = then.map { statement in
            // GUARD is each statement's last placeholder, so its arguments go last.
            statement.sql.contains("GUARD")
                ? SQLStatement(statement.sql.replacingOccurrences(of: "GUARD", with: condition),
                               statement.arguments + [.text(credentialId), .text(assertion)])
                : statement
        }
        let rows = try await database.transaction([
            SQLStatement("""
                UPDATE credentials SET counter = ?, failures = 0, last_used_at = ?, last_assertion = ?
                WHERE credential_id = ? AND status = 'active' AND counter < ? RETURNING credential_id
                """, [.int(counter), .int(Clock.milliseconds()), .text(assertion), .text(credentialId), .int(counter)]),
        ] + guarded)
        return rows[0].isEmpty ? nil : Array(rows.dropFirst())
    }

    /// A new session, guarded (see ``advanceCounter(_:to:assertion:then:)``).
    func sessionStatement(digest: String, username: String, kind: String, expiresAt: Int64) -> SQLStatement {
        SQLStatement("INSERT INTO tokens (token_hash, username, kind, expires_at) SELECT ?, ?, ?, ? WHERE GUARD",
                     [.text(digest), .text(username), .text(kind), .int(expiresAt)])
    }

    /// Pending → confirmed, once, guarded; returns the payment's id when it was pending.
    func confirmStatement(_ paymentId: String) -> SQLStatement {
        SQLStatement("""
            UPDATE payments SET status = 'confirmed', confirmed_at = ?
            WHERE payment_id = ? AND status = 'pending' AND GUARD RETURNING payment_id
            """, [.int(Clock.milliseconds()), .text(paymentId)])
    }

    /// An audit entry, guarded.
    func guardedAudit(_ record: AuditRecord) -> SQLStatement {
        let statement = auditStatement(record)
        return SQLStatement(statement.sql + " WHERE GUARD", statement.arguments)
    }

    /// Freezes an active credential (its counter went back).
    func freeze(_ credentialId: String, audit: AuditRecord) async throws {
        _ = try await database.transaction([
            SQLStatement("UPDATE credentials SET status = 'frozen' WHERE credential_id = ? AND status = 'active'", [.text(credentialId)]),
            auditStatement(audit),
        ])
    }

    // MARK: Challenges and payments

    /// Counts one hit on each key in this minute's window and stores the challenge only
    /// if every key is within its limit. The hits, in the order of `limits`; whether it was stored.
    func issueChallenge(id: String, credentialId: String, purpose: String, challenge: String, paymentId: String?,
                        pendingId: String? = nil, expiresAt: Int64, limits: [(key: String, limit: Int)], payment: PaymentRow? = nil,
                        audit: AuditRecord? = nil) async throws -> (stored: Bool, hits: [Int64]) {
        let window = Clock.milliseconds() / 60_000 * 60_000
        var statements = limits.map { hitStatement(key: $0.key, window: window) }
        if let payment {
            statements.append(SQLStatement("""
                INSERT INTO payments (payment_id, username, credential_id, amount, currency, payee, status, created_at)
                SELECT ?, ?, ?, ?, ?, ?, 'pending', ? WHERE \(withinLimits(limits.count))
                """, [.text(payment.paymentId), .text(payment.username), .text(payment.credentialId), .text(payment.amount),
                      .text(payment.currency), .text(payment.payee), .int(Clock.milliseconds())] + limitArguments(limits, window: window)))
        }
        statements.append(SQLStatement("""
            INSERT INTO challenges (challenge_id, credential_id, purpose, challenge, payment_id, pending_id, expires_at)
            SELECT ?, ?, ?, ?, ?, ?, ? WHERE \(withinLimits(limits.count)) RETURNING challenge_id
            """, [.text(id), .text(credentialId), .text(purpose), .text(challenge), SQLValue(paymentId), SQLValue(pendingId),
                  .int(expiresAt)]
            + limitArguments(limits, window: window)))
        if let audit { statements.append(auditStatement(audit)) }
        let rows = try await database.transaction(statements)
        let hits = rows.prefix(limits.count).map { $0.first?.int(0) ?? .max }
        let stored = !rows[limits.count + (payment == nil ? 0 : 1)].isEmpty
        return (stored, hits)
    }

    /// The challenge if it is unused, unexpired, and for this credential and purpose; nothing changes.
    func openChallenge(_ challengeId: String, credentialId: String, purpose: String) async throws -> OpenChallenge? {
        guard let row = try await database.read("""
            SELECT challenge, payment_id, pending_id FROM challenges
            WHERE challenge_id = ? AND credential_id = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
            """, [.text(challengeId), .text(credentialId), .text(purpose), .int(Clock.milliseconds())]).first,
            let challenge = row.text(0) else { return nil }
        return OpenChallenge(challenge: challenge, paymentId: row.text(1), pendingId: row.text(2))
    }

    /// Marks the challenge used if it is still unused and unexpired, and for this credential,
    /// purpose, payment and pending binding: one statement, so exactly one of concurrent
    /// requests gets it, on any instance. False when another got it first or it expired.
    func consumeChallenge(_ challengeId: String, credentialId: String, purpose: String, opened: OpenChallenge) async throws -> Bool {
        let now = Clock.milliseconds()
        return try await !database.run("""
            UPDATE challenges SET used_at = ?
            WHERE challenge_id = ? AND credential_id = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
              AND COALESCE(payment_id, '') = ? AND COALESCE(pending_id, '') = ?
            RETURNING challenge_id
            """, [.int(now), .text(challengeId), .text(credentialId), .text(purpose), .int(now),
                  .text(opened.paymentId ?? ""), .text(opened.pendingId ?? "")]).isEmpty
    }

    func payment(_ paymentId: String) async throws -> PaymentRow? {
        try await database.read("SELECT \(PaymentRow.columns) FROM payments WHERE payment_id = ?", [.text(paymentId)]).first
            .flatMap(PaymentRow.init)
    }

    // MARK: Rate limits, audit, housekeeping

    /// One hit on each key in this minute's window; the hits so far in it, in order.
    func hit(_ keys: [String]) async throws -> [Int64] {
        let window = Clock.milliseconds() / 60_000 * 60_000
        return try await database.transaction(keys.map { hitStatement(key: $0, window: window) }).map { $0.first?.int(0) ?? .max }
    }

    /// The hits on each key in this minute's window, counting none.
    func hits(_ keys: [String]) async throws -> [Int64] {
        let window = Clock.milliseconds() / 60_000 * 60_000
        var counts: [Int64] = []
        for key in keys {
            counts.append(try await database.read("SELECT hits FROM rate_limits WHERE rate_key = ? AND window_start = ?",
                                                  [.text(key), .int(window)]).first?.int(0) ?? 0)
        }
        return counts
    }

    /// Gives back one hit on each key in this minute's window (a hit reserved for a failure
    /// that did not happen).
    func refund(_ keys: [String]) async throws {
        let window = Clock.milliseconds() / 60_000 * 60_000
        _ = try await database.transaction(keys.map {
            SQLStatement("UPDATE rate_limits SET hits = hits - 1 WHERE rate_key = ? AND window_start = ? AND hits > 0",
                         [.text($0), .int(window)])
        })
    }

    func audit(_ record: AuditRecord) async throws {
        _ = try await database.transaction([auditStatement(record)])
    }

    func auditLog(username: String, limit: Int) async throws -> [AuditEntry] {
        try await database.read("""
            SELECT at, event, outcome, username, device_id, detail, address FROM audit
            WHERE username = ? ORDER BY at DESC, audit_id LIMIT ?
            """, [.text(username), .int(Int64(limit))]).compactMap { row in
            guard let at = row.int(0), let event = row.text(1), let outcome = row.text(2), let detail = row.text(5) else { return nil }
            return AuditEntry(at: at, event: event, outcome: outcome, username: row.text(3), deviceId: row.text(4),
                              detail: detail, address: row.text(6))
        }
    }

    /// Drops what can never be used again: expired challenges and sessions, past rate windows.
    func purge(olderThan cutoff: Int64) async throws {
        _ = try await database.transaction([
            SQLStatement("DELETE FROM challenges WHERE expires_at < ?", [.int(cutoff)]),
            SQLStatement("DELETE FROM tokens WHERE expires_at < ?", [.int(cutoff)]),
            SQLStatement("DELETE FROM rate_limits WHERE window_start < ?", [.int(cutoff)]),
            SQLStatement("DELETE FROM pending_bindings WHERE expires_at < ?", [.int(cutoff)]),
            SQLStatement("DELETE FROM binding_codes WHERE expires_at < ?", [.int(cutoff)]),
        ])
    }

    private func hitStatement(key: String, window: Int64) -> SQLStatement {
        SQLStatement("""
            INSERT INTO rate_limits (rate_key, window_start, hits) VALUES (?, ?, 1)
            ON CONFLICT (rate_key) DO UPDATE SET
                hits = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.hits + 1 ELSE 1 END,
                window_start = excluded.window_start
            RETURNING hits
            """, [.text(key), .int(window)])
    }

    private func withinLimits(_ count: Int) -> String {
        count == 0 ? "1 = 1"
            : Array(repeating: "(SELECT hits FROM rate_limits WHERE rate_key = ? AND window_start = ?) <= ?", count: count)
                .joined(separator: " AND ")
    }

    private func limitArguments(_ limits: [(key: String, limit: Int)], window: Int64) -> [SQLValue] {
        limits.flatMap { [SQLValue.text($0.key), .int(window), .int(Int64($0.limit))] }
    }

    /// An audit entry, as `INSERT … SELECT …` (a condition can follow).
    func auditStatement(_ record: AuditRecord) -> SQLStatement {
        SQLStatement("""
            INSERT INTO audit (audit_id, at, event, outcome, username, device_id, detail, address) SELECT ?, ?, ?, ?, ?, ?, ?, ?
            """, [.text(RandomTokens.make(bytes: 12)), .int(Clock.milliseconds()), .text(record.event), .text(record.outcome),
                  SQLValue(record.username), SQLValue(record.deviceId), .text(record.detail), SQLValue(record.address)])
    }
}
