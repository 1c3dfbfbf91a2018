import FPAccountAPI

/// What vouches for a new device besides the password: pending bindings a bound device
/// approves, an operator's one-time codes, an administrator's trusted identities.
extension AccountStore {
    // MARK: Devices an account has

    /// How many credentials the account ever had (a revoked one stays: unbinding a device
    /// does not make the account new again) and how many of them are active (devices that
    /// could approve another). An answer the store cannot read is an error, never "none".
    func credentialCounts(username: String) async throws -> (ever: Int64, active: Int64) {
        guard let row = try await database.read("""
            SELECT (SELECT COUNT(*) FROM credentials WHERE username = ?),
                   (SELECT COUNT(*) FROM credentials WHERE username = ? AND status = 'active')
            """, [.text(username), .text(username)]).first, let ever = row.int(0), let active = row.int(1) else {
            throw DatabaseFailure(description: "the credentials of \(username) could not be counted")
        }
        return (ever, active)
    }

    // MARK: Pending bindings

    /// Stores a pending binding if the account has fewer than `limit` open ones and none
    /// with the same pairing code (concurrent requests take turns on the account's row);
    /// false otherwise, and then `audit` is not written either.
    func insertPending(_ row: PendingRow, limit: Int, audit: AuditRecord) async throws -> Bool {
        let now = Clock.milliseconds()
        let binding = row.binding
        let audited = auditStatement(audit)
        let rows = try await database.transaction([
            accountLock(binding.username),
            SQLStatement("""
                INSERT INTO pending_bindings (pending_id, username, device_id, name, identity_key, credential_id, public_key,
                                              access_control, protection, pairing_code, status, created_at, expires_at, local_user)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?
                WHERE (SELECT COUNT(*) FROM pending_bindings WHERE username = ? AND status = 'pending' AND expires_at > ?) < ?
                  AND NOT EXISTS (SELECT 1 FROM pending_bindings
                                  WHERE username = ? AND pairing_code = ? AND status = 'pending' AND expires_at > ?)
                RETURNING pending_id
                """, [.text(row.pendingId), .text(binding.username), .text(binding.deviceId), .text(binding.name),
                      .text(binding.identityKey), .text(binding.credentialId), .text(binding.publicKey), .text(binding.accessControl),
                      .text(binding.protection), .text(row.pairingCode), .int(now), .int(row.expiresAt), SQLValue(binding.localUser),
                      .text(binding.username), .int(now), .int(Int64(limit)),
                      .text(binding.username), .text(row.pairingCode), .int(now)]),
            SQLStatement(audited.sql + " WHERE EXISTS (SELECT 1 FROM pending_bindings WHERE pending_id = ?)",
                         audited.arguments + [.text(row.pendingId)]),
        ])
        return !rows[1].isEmpty
    }

    func pending(_ pendingId: String) async throws -> PendingRow? {
        try await database.read("SELECT \(PendingRow.columns) FROM pending_bindings WHERE pending_id = ?", [.text(pendingId)])
            .first.flatMap(PendingRow.init)
    }

    /// The account's open pending bindings showing `pairingCode`.
    func openPending(username: String, pairingCode: String) async throws -> [PendingRow] {
        try await database.read("""
            SELECT \(PendingRow.columns) FROM pending_bindings
            WHERE username = ? AND pairing_code = ? AND status = 'pending' AND expires_at > ?
            """, [.text(username), .text(pairingCode), .int(Clock.milliseconds())]).compactMap(PendingRow.init)
    }

    /// The statements that approve `pending` with the assertion `challengeId`, guarded (see
    /// ``advanceCounter(_:to:assertion:then:)``): the request marked approved by this very
    /// assertion, then the binding, each only if that mark is there. The first returns the
    /// request's id when it was still open; the binding's last returns the new credential's id.
    func approvalStatements(_ pending: PendingRow, challengeId: String) -> [SQLStatement] {
        let approve = SQLStatement("""
            UPDATE pending_bindings SET status = 'approved', approved_with = ?
            WHERE pending_id = ? AND status = 'pending' AND expires_at > ? AND GUARD RETURNING pending_id
            """, [.text(challengeId), .text(pending.pendingId), .int(Clock.milliseconds())])
        let marked = (sql: "EXISTS (SELECT 1 FROM pending_bindings WHERE pending_id = ? AND approved_with = ?)",
                      arguments: [SQLValue.text(pending.pendingId), .text(challengeId)])
        return [approve] + bindStatements(pending.binding, condition: marked)
    }

    // MARK: One-time binding codes

    /// Stores a code's digest for `username`, valid until `expiresAt`.
    func insertBindingCode(digest: String, username: String, expiresAt: Int64) async throws {
        _ = try await database.transaction([
            SQLStatement("INSERT INTO binding_codes (code_hash, username, created_at, expires_at) VALUES (?, ?, ?, ?)",
                         [.text(digest), .text(username), .int(Clock.milliseconds()), .int(expiresAt)]),
        ])
    }

    /// The same, as a statement guarded like a session's (``sessionStatement(digest:username:kind:expiresAt:)``):
    /// a bound device's invitation, written with the counter that signed it or not at all.
    func bindingCodeStatement(digest: String, username: String, expiresAt: Int64) -> SQLStatement {
        SQLStatement("INSERT INTO binding_codes (code_hash, username, created_at, expires_at) SELECT ?, ?, ?, ? WHERE GUARD",
                     [.text(digest), .text(username), .int(Clock.milliseconds()), .int(expiresAt)])
    }

    /// Marks the code used if it is the account's, unused and unexpired: exactly one binding gets it.
    func consumeBindingCode(digest: String, username: String) async throws -> Bool {
        let now = Clock.milliseconds()
        return try await !database.run("""
            UPDATE binding_codes SET used_at = ?
            WHERE code_hash = ? AND username = ? AND used_at IS NULL AND expires_at > ? RETURNING code_hash
            """, [.int(now), .text(digest), .text(username), .int(now)]).isEmpty
    }

    // MARK: Trusted identities

    /// Whether the administrator registered the machine of `identityKey` for `localUser` (or
    /// for every local user of it). A device bound before the server kept its local user
    /// (`nil`) is trusted only where every local user is.
    func isTrusted(identityKey: String, localUser: String?) async throws -> Bool {
        guard let row = try await database.read("SELECT local_users FROM trusted_identities WHERE identity_key = ?",
                                                [.text(identityKey)]).first else { return false }
        switch row.values.first {
        case .null: return true
        case .text(let users): return localUser.map { users.split(separator: "\n").contains(Substring($0)) } ?? false
        // Anything else is not a list the administrator wrote: trusted for nobody.
        case .int, nil: return false
        }
    }

    /// Registers an identity key (PEM, as the server stores it) for `localUsers` (empty: every
    /// local user of that machine); false when it was registered already (then nothing changes).
    func trust(identityKey: String, name: String, localUsers: [String]) async throws -> Bool {
        try await !database.run("""
            INSERT INTO trusted_identities (identity_key, name, added_at, local_users) VALUES (?, ?, ?, ?)
            ON CONFLICT (identity_key) DO NOTHING RETURNING identity_key
            """, [.text(identityKey), .text(name), .int(Clock.milliseconds()),
                  SQLValue(localUsers.isEmpty ? nil : localUsers.joined(separator: "\n"))]).isEmpty
    }

    /// Removes a registered identity; false when it was not registered.
    func distrust(identityKey: String) async throws -> Bool {
        try await !database.run("DELETE FROM trusted_identities WHERE identity_key = ? RETURNING identity_key",
                                [.text(identityKey)]).isEmpty
    }

    /// Every registered identity: name, PEM, when (oldest first), and the local users it is
    /// trusted for (empty: every one).
    func trustedIdentities() async throws -> [(name: String, identityKey: String, addedAt: Int64, localUsers: [String])] {
        try await database.read("SELECT name, identity_key, added_at, local_users FROM trusted_identities ORDER BY added_at", [])
            .compactMap { row in
                guard let name = row.text(0), let key = row.text(1), let at = row.int(2) else { return nil }
                return (name, key, at, row.text(3).map { $0.split(separator: "\n").map(String.init) } ?? [])
            }
    }
}

extension AccountStore {
    /// How many of the account's pending bindings are open.
    func openPendingCount(username: String) async throws -> Int64 {
        try await database.read("SELECT COUNT(*) FROM pending_bindings WHERE username = ? AND status = 'pending' AND expires_at > ?",
                                [.text(username), .int(Clock.milliseconds())]).first?.int(0) ?? 0
    }
}
