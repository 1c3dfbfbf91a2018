import FPReaders

/// How a context reaches a reader its host shares between requests (fpbridged): the reader is
/// taken for each step that uses it and given back when the step ends. A context that waits for
/// a passcode (before its scans, after them, or with none at all) then holds no reader, and no
/// one else waits behind a prompt.
package protocol ReaderTurn: Sendable {
    /// Runs `body` with the reader opened and held for it alone; nil when there is none to use.
    /// - Throws: `AuthErrorCode.readerBusy` when the reader stays busy past the host's limit.
    func withReader<T: Sendable>(_ body: @escaping @Sendable ((any FingerprintReader)?) async throws -> T) async throws -> T
}

extension AuthenticationContext {
    /// Runs a step that uses the reader (a scan, a delete on the sensor) with the reader held for
    /// that step only, through the environment's ``ReaderTurn``; without one, the host holds
    /// ``AuthEnvironment/reader`` for the whole context. Every use of the reader goes through here.
    func withReader<T: Sendable>(_ body: @escaping @Sendable ((any FingerprintReader)?) async throws -> T) async throws -> T {
        guard let turn = environment.readerTurn else { return try await body(environment.reader) }
        return try await turn.withReader(body)
    }
}
