import FPAuthentication

/// Opens a reader for one operation and closes it afterwards, whatever happens in between:
/// the CLI's in-process commands and the service open readers the same way.
package enum OpenedReader {
    /// Runs `body` with the selection's reader opened. When `required` is false, a reader that
    /// is missing, forbidden or gone gives nil instead of an error (the passcode may still do).
    package static func with<T>(_ selection: ReaderSelection, required: Bool,
                                _ body: ((any FingerprintReader)?) async throws -> T) async throws -> T {
        try await with(candidate: { try await selection.reader() }, required: required, body)
    }

    /// The same with the unopened reader given by `candidate` (which may throw a ``ReaderError``).
    package static func with<T>(candidate: () async throws -> any FingerprintReader, required: Bool,
                                _ body: ((any FingerprintReader)?) async throws -> T) async throws -> T {
        let reader: (any FingerprintReader)?
        do {
            let candidate = try await candidate()
            try await candidate.open()
            reader = candidate
        } catch let error as ReaderError {
            guard !required, unavailable(error) else { throw AuthError(error) }
            reader = nil
        }
        do {
            let result = try await body(reader)
            try? await reader?.close()
            return result
        } catch {
            try? await reader?.close()
            throw error
        }
    }

    package static func unavailable(_ error: ReaderError) -> Bool {
        switch error {
        case .noReader, .permissionDenied, .removed: true
        default: false
        }
    }
}
