import FPAuthentication
import FPReaders
import Foundation

/// Opens the selected reader for one command and closes it afterwards,
/// whatever happens in between.
enum ReaderSession {
    /// Runs `body` with the opened reader. When `required` is false, a missing
    /// or unusable reader gives `nil` instead of an error (the passcode may still do).
    static func with<T>(_ options: GlobalOptions, required: Bool = true,
                        _ body: ((any FingerprintReader)?) async throws -> T) async throws -> T {
        let reader: (any FingerprintReader)?
        do {
            let candidate = try await options.selection().reader()
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

    private static func unavailable(_ error: ReaderError) -> Bool {
        switch error {
        case .noReader, .permissionDenied, .removed: true
        default: false
        }
    }

    /// The environment for the engine with the given reader.
    static func environment(_ options: GlobalOptions, reader: (any FingerprintReader)?) throws -> AuthEnvironment {
        AuthEnvironment(user: options.userName, reader: reader, stateDirectory: options.stateDirectory,
                        configuration: try options.configuration())
    }
}
