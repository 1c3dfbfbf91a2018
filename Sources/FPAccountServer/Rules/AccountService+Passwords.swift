import FPAccountAPI

extension AccountService {
    /// `POST /v1/accounts`.
    func register(_ request: PasswordRequest, address: String?) async throws -> String {
        let username = try username(request.username)
        try checkPassword(request.password)
        // Each registration costs a slow hash; registrations have a bucket of their own, so
        // that signing up never stands in the way of logging in.
        try checkLimits(try await store.hit(["register-address:\(ClientAddress.bucket(address))"]), [configuration.registrationsPerAddress],
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
        // Every attempt costs a slow hash, so an address gets so many a minute whatever the
        // outcome. Guesses are counted per account from anywhere and per account from this
        // address: the hit is taken first (concurrent guesses cannot slip past the limit) and
        // given back when the password was right, so a user's own logins never use up the
        // budget that someone guessing at the account exhausts.
        let bucket = ClientAddress.bucket(address)
        let guesses = ["password-account:\(username)", "password-account-address:\(username):\(bucket)"]
        let hits = try await store.hit(["password-address:\(bucket)"] + guesses)
        do {
            try checkLimits(hits, [configuration.passwordLoginsPerAddress, configuration.passwordLoginsPerAccount,
                                   configuration.passwordLoginsPerAccountAddress],
                            what: "password logins for this account or from this address")
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
        try await store.refund(guesses)
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
