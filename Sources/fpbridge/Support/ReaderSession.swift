import FPAuthentication
import FPLocalAPIEngine

/// Opens the selected reader for one in-process command and closes it afterwards.
enum ReaderSession {
    /// Runs `body` with the opened reader. When `required` is false, a missing
    /// or unusable reader gives `nil` instead of an error (the passcode may still do).
    static func with<T>(_ options: GlobalOptions, required: Bool = true,
                        _ body: ((any FingerprintReader)?) async throws -> T) async throws -> T {
        try await OpenedReader.with(try options.selection(), required: required, body)
    }

    /// The environment for the engine with the given reader.
    static func environment(_ options: GlobalOptions, reader: (any FingerprintReader)?) throws -> AuthEnvironment {
        var environment = AuthEnvironment(user: options.userName, reader: reader, stateDirectory: options.stateDirectory,
                                          configuration: try options.configuration())
        // In process, the command reads the state directory itself: whose print holds a
        // finger is no secret from it.
        environment.mayNameOtherUsersPrints = true
        return environment
    }
}
