import FPVocabulary

/// An ``AuthError`` as the API and `--json` write it: `{code, name, message, retryAfter?, cause?, hint?}`.
package struct WireError: Codable, Sendable, Hashable {
    package var code: Int
    package var name: String
    package var message: String
    package var retryAfter: Double?
    /// `AuthErrorCause`'s raw value, where the error has one.
    package var cause: String?
    /// What the person can do about it with fpbridge's own commands (the CLI's `--json`).
    package var hint: String?

    package init(_ error: AuthError, hint: String? = nil) {
        code = error.code.rawValue
        name = error.code.name
        message = error.message
        retryAfter = error.retryAfter
        cause = error.cause?.rawValue
        self.hint = hint
    }

    /// The engine's error again; a code this side does not know is a reader failure, named as such.
    package var error: AuthError {
        guard let known = AuthErrorCode(rawValue: code) else {
            return AuthError(.readerFailure, "the service answered with unknown code \(code) (\(name)): \(message)", cause: .serviceAnswer)
        }
        // A cause this side does not know is left out: the code and the words still say what happened.
        return AuthError(known, message, retryAfter: retryAfter, cause: cause.flatMap(AuthErrorCause.init(rawValue:)))
    }
}

/// The body of every refusal that is not a stream: `{"ok": false, "error": {...}}`, as the CLI's `--json`.
package struct FailureBody: Codable, Sendable {
    package var ok = false
    package var error: WireError

    package init(_ error: AuthError, hint: String? = nil) { self.error = WireError(error, hint: hint) }
}
