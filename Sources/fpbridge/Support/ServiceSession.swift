import FPAuthentication
import FPLocalAPI
import FPServiceClient
import FPTerminal
import FoundationEssentials
import Glibc

/// Commands run through `fpbridged`: the same output and exit statuses as in-process,
/// the engine and the state in the service.
enum ServiceSession {
    /// Fills in what this command line chose explicitly: another user, a reader, a state
    /// directory (the service decides whether the caller may).
    static func target<Request: TargetedRequest>(_ request: Request, _ options: GlobalOptions) -> Request {
        var request = request
        let (user, reader, stateDirectory) = fields(options)
        request.user = user
        request.reader = reader
        request.stateDirectory = stateDirectory
        return request
    }

    /// The same as query parameters.
    static func query(_ options: GlobalOptions) -> [String: String?] {
        let (user, reader, stateDirectory) = fields(options)
        return ["user": user, "reader": reader, "stateDirectory": stateDirectory]
    }

    private static func fields(_ options: GlobalOptions) -> (String?, String?, String?) {
        let reader = options.chosenReader
        let stateDirectory = options.chosenStateDirectory.map { path in
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
        // A fake script named by a relative path is read by the service: make it absolute.
        let absoluteReader = reader.map { text -> String in
            guard text.hasPrefix("fake:"), !text.dropFirst(5).hasPrefix("/") else { return text }
            return "fake:" + FileManager.default.currentDirectoryPath + "/" + text.dropFirst(5)
        }
        return (options.user, absoluteReader, stateDirectory)
    }

    /// Runs a streamed operation at the terminal: its events on stderr, Ctrl-C as the cancel
    /// button, Enter as the fallback button when `fallbackKey` is on, passcodes from `prompt`.
    static func run(_ client: ServiceClient, _ path: String, _ body: some Encodable, console: Console,
                    prompt: any AuthPrompt, fallbackKey: Bool = false,
                    enrollment: @escaping @Sendable (EnrollmentProgress) -> Void = { _ in }) async throws -> JSONValue {
        let controls = OperationControls()
        let interrupt = CtrlC { controls.pressCancel() }
        defer { interrupt.release() }
        let key = fallbackKey ? FallbackKey.start { controls.pressFallback() } : nil
        defer { key?.stop() }
        var terminalPrompt = prompt
        if let key, let plain = prompt as? TerminalPrompt {
            terminalPrompt = TerminalPrompt(fromStandardInput: plain.fromStandardInput, fallbackKey: key)
        }
        let handler = TerminalStreamHandler(console: console, fallbackKey: key != nil, prompt: terminalPrompt,
                                            onEnrollment: enrollment)
        return try await client.stream(path, body, controls: controls, handler: handler)
    }
}

/// Shows a streamed operation's lines as the in-process commands show the engine's events.
struct TerminalStreamHandler: StreamHandler {
    let console: Console
    let fallbackKey: Bool
    let prompt: any AuthPrompt
    let onEnrollment: @Sendable (EnrollmentProgress) -> Void

    func event(_ event: AuthEvent) { console.note(EventPrinter.text(event, fallbackKey: fallbackKey, verbose: console.verbose)) }

    func enrollment(_ progress: EnrollmentProgress) { onEnrollment(progress) }

    func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? {
        await prompt.passcode(reason: reason, attemptsLeftBeforeLockout: attemptsLeftBeforeLockout)
    }
}

extension ServiceSession {
    /// An evaluation through the service, with what the in-process path returns.
    static func evaluate(_ socket: String, _ request: EvaluationRequest, options: GlobalOptions,
                         prompt: any AuthPrompt = NoPasscodePrompt(), fallbackKey: Bool = false) async throws -> AuthSuccess {
        let request = target(request, options)
        let value = try await ServiceClient.with(socket: socket) { client in
            try await run(client, "evaluations", request, console: options.console, prompt: prompt, fallbackKey: fallbackKey)
        }
        return try decode(value, as: EvaluationResult.self).success
    }

    /// A result's value as the type the command expects.
    static func decode<T: Decodable>(_ value: JSONValue, as type: T.Type) throws -> T {
        do { return try value.decode(as: T.self) } catch {
            throw AuthError(.readerFailure, "the fpbridge service sent a result this client cannot read: \(error)", cause: .serviceAnswer)
        }
    }
}
