/// The tables, as migrations in order. Only TEXT and BIGINT columns, so that one
/// text serves SQLite and PostgreSQL; times are milliseconds since 1970.
enum Schema {
    /// Each entry is one version; a version once released is never edited, only followed.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE accounts (
                username TEXT PRIMARY KEY,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE tokens (
                token_hash TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                kind TEXT NOT NULL,
                expires_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE devices (
                username TEXT NOT NULL,
                device_id TEXT NOT NULL,
                name TEXT NOT NULL,
                identity_key TEXT NOT NULL,
                bound_at BIGINT NOT NULL,
                PRIMARY KEY (username, device_id))
            """,
            """
            CREATE TABLE credentials (
                credential_id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                device_id TEXT NOT NULL,
                public_key TEXT NOT NULL,
                access_control TEXT NOT NULL,
                protection TEXT NOT NULL,
                counter BIGINT NOT NULL,
                failures BIGINT NOT NULL,
                status TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT)
            """,
            "CREATE INDEX credentials_by_user ON credentials (username, device_id)",
            """
            CREATE TABLE challenges (
                challenge_id TEXT PRIMARY KEY,
                credential_id TEXT NOT NULL,
                purpose TEXT NOT NULL,
                challenge TEXT NOT NULL,
                payment_id TEXT,
                expires_at BIGINT NOT NULL,
                used_at BIGINT)
            """,
            "CREATE INDEX challenges_by_expiry ON challenges (expires_at)",
            """
            CREATE TABLE payments (
                payment_id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                credential_id TEXT NOT NULL,
                amount TEXT NOT NULL,
                currency TEXT NOT NULL,
                payee TEXT NOT NULL,
                status TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                confirmed_at BIGINT)
            """,
            """
            CREATE TABLE rate_limits (
                rate_key TEXT PRIMARY KEY,
                window_start BIGINT NOT NULL,
                hits BIGINT NOT NULL)
            """,
            """
            CREATE TABLE audit (
                audit_id TEXT PRIMARY KEY,
                at BIGINT NOT NULL,
                event TEXT NOT NULL,
                outcome TEXT NOT NULL,
                username TEXT,
                device_id TEXT,
                detail TEXT NOT NULL,
                address TEXT)
            """,
            "CREATE INDEX audit_by_user ON audit (username, at)",
        ],
        [
            // The challenge of the last accepted assertion: what a login's session and a
            // payment's confirmation are conditioned on, in the counter's own transaction.
            "ALTER TABLE credentials ADD COLUMN last_assertion TEXT",
        ],
        [
            // What vouches for a new device besides the password (issue 28): a bound device's
            // approval of a pending binding, an operator's one-time code, an administrator's list.
            """
            CREATE TABLE pending_bindings (
                pending_id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                device_id TEXT NOT NULL,
                name TEXT NOT NULL,
                identity_key TEXT NOT NULL,
                credential_id TEXT NOT NULL,
                public_key TEXT NOT NULL,
                access_control TEXT NOT NULL,
                protection TEXT NOT NULL,
                pairing_code TEXT NOT NULL,
                status TEXT NOT NULL,
                approved_with TEXT,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL)
            """,
            "CREATE INDEX pending_by_user ON pending_bindings (username, pairing_code)",
            """
            CREATE TABLE binding_codes (
                code_hash TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT)
            """,
            """
            CREATE TABLE trusted_identities (
                identity_key TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                added_at BIGINT NOT NULL)
            """,
            // An approval's challenge names the request it approves, as a payment's names its payment.
            "ALTER TABLE challenges ADD COLUMN pending_id TEXT",
        ],
        [
            // A device is a machine's identity key and one of its local users (issue 36): several
            // people share a machine, and one's binding must never stand for another's. Devices
            // bound before keep NULL: their id is the identity key's alone, and no new binding
            // from that machine is "the same device" as one of them.
            "ALTER TABLE devices ADD COLUMN local_user TEXT",
            "ALTER TABLE pending_bindings ADD COLUMN local_user TEXT",
            // The local users an administrator trusts a machine for, one a line; NULL for every
            // local user of it (as every identity registered before).
            "ALTER TABLE trusted_identities ADD COLUMN local_users TEXT",
        ],
    ]

    /// Brings the database to the newest version; instances starting together take turns.
    static func migrate(_ database: any SQLDatabase) async throws {
        var lock: [SQLStatement] = []
        if database.dialect == .postgres {
            // Held to the end of the transaction: a second instance waits, then finds the work done.
            lock.append(SQLStatement("SELECT pg_advisory_xact_lock(7715001)"))
        }
        let create = SQLStatement("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)")
        _ = try await database.transaction(lock + [create])
        for (offset, statements) in migrations.enumerated() {
            let version = Int64(offset + 1)
            if try await applied(version, database) { continue }
            // The version's row and its tables commit together. An instance that raced us
            // fails on the row's primary key, rolls back, and finds the version applied.
            let record = SQLStatement("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                                      [.int(version), .int(Clock.milliseconds())])
            do {
                _ = try await database.transaction(lock + [record] + statements.map { SQLStatement($0) })
            } catch {
                if try await applied(version, database) { continue }
                throw error
            }
        }
    }

    private static func applied(_ version: Int64, _ database: any SQLDatabase) async throws -> Bool {
        try await !database.run("SELECT version FROM schema_migrations WHERE version = ?", [.int(version)]).isEmpty
    }
}
