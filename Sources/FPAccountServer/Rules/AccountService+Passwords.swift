import FPAccountAPI

extension AccountService {
    /// `POST /v1/accounts`.
    func register(_ request: PasswordRequest, address: String?) async throws -> String {
        let username = try username(request.username)
        try checkPassword(request.password)
        // Each registration costs a slow hash: an address gets as many as it gets password logins.
        try checkLimits(try await store.hit(["register-address:\(address ?? "unknown")"]), [configuration.passwordLoginsPerAddress],
                        what: "registrations from this address")
        let hash = try await passwords.hash(request.password)
        let created = try await store.createAccount(username, passwordHash: hash)
        try await store.audit(AuditRecord(event: "register", outcome: created ? "ok" : AccountErrorCode.usernameTaken.rawValue,
                                          username: username, deviceId: nil, detail: "", address: address))
        guard created else { throw AccountError(.usernameTaken, "the user name '\(username)' is taken") }
        return username
    }

    /// `POST /v1/sessions`: a password session (to bind and unbind devices).
    func passwordLogin(_ request: PasswordRequest, address: String?) async throws -> SessionToken {
        let username = try username(request.username)
        try checkPassword(request.password)
        let hits = try await store.hit(["password-account:\(username)", "password-address:\(address ?? "unknown")"])
        do {
            try checkLimits(hits, [configuration.passwordLoginsPerAccount, configuration.passwordLoginsPerAddress],
                            what: "password logins for this account or address")
        } catch let error as AccountError {
            try await store.audit(AuditRecord(event: "password-login", outcome: error.code.rawValue, username: username,
                                              deviceId: nil, detail: "", address: address))
            throw error
        }
        let stored = try await store.passwordHash(username)
        let matches: Bool
        if let stored { matches = await passwords.matches(request.password, stored: stored) } else {
            await passwords.burn(request.password)
            matches = false
        }
        guard matches else {
            try await store.audit(AuditRecord(event: "password-login", outcome: AccountErrorCode.invalidCredentials.rawValue,
                                              username: stored == nil ? nil : username, deviceId: nil, detail: "", address: address))
            throw AccountError(.invalidCredentials, "wrong user name or password")
        }
        return try await issueSession(username, kind: "password", seconds: configuration.passwordSessionSeconds,
                                      audit: AuditRecord(event: "password-login", outcome: "ok", username: username,
                                                         deviceId: nil, detail: "", address: address))
    }

    private func checkPassword(_ password: String) throws {
        guard AccountLimits.passwordBytes.contains(password.utf8.count) else {
            throw AccountError(.invalidRequest, "'password' must be \(AccountLimits.passwordBytes.lowerBound) to \(AccountLimits.passwordBytes.upperBound) bytes")
        }
    }
}
