import ArgumentParser
import FPAuthentication
import FPLocalAPIEngine
import FPServiceClient
import FPTerminal

struct PasscodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passcode",
        abstract: "Set, change or remove the user's passcode (kept only as a salted scrypt hash).",
        subcommands: [Set.self, Change.self, Remove.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the passcode. With --passcode-stdin: the current passcode first when one is set, then the new one, one per line.")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Read the passcode from standard input instead of a no-echo prompt.")
        var passcodeStdin = false

        func run() async throws {
            if let socket = try options.serviceSocket() {
                // The current passcode comes first on stdin when one is set, as in-process.
                let query = ServiceSession.query(options)
                let status: StatusReport = try await ServiceClient.with(socket: socket) { try await $0.get("status", query: query) }
                let current = status.passcode == "set"
                    ? try await PasscodeCommand.currentPasscode(fromStandardInput: passcodeStdin, options: options) : nil
                let passcode = try await PasscodeCommand.newPasscode(fromStandardInput: passcodeStdin, options: options)
                try await PasscodeCommand.throughService(socket, .set, new: passcode, current: ListedPasscodes(current.map { [$0] } ?? []),
                                                         options: options)
            } else {
                let context = try PasscodeCommand.context(options)
                let manager = PasscodeManager(context: context)
                let current = try manager.isSet ? await PasscodeCommand.currentPasscode(fromStandardInput: passcodeStdin, options: options) : nil
                let passcode = try await PasscodeCommand.newPasscode(fromStandardInput: passcodeStdin, options: options)
                try await Evaluation.run(context, console: options.console) {
                    try await manager.set(passcode, prompt: ListedPasscodes(current.map { [$0] } ?? []))
                }
            }
            options.console.success("Passcode set for \(options.userName).", ["user": .string(options.userName)])
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change",
            abstract: "Change the passcode. With --passcode-stdin: the current passcode, then the new one, one per line.")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Read passcodes from standard input instead of no-echo prompts.")
        var passcodeStdin = false

        func run() async throws {
            let current = try await PasscodeCommand.currentPasscode(fromStandardInput: passcodeStdin, options: options)
            let passcode = try await PasscodeCommand.newPasscode(fromStandardInput: passcodeStdin, options: options)
            let prompt = ListedPasscodes(current.map { [$0] } ?? [])
            if let socket = try options.serviceSocket() {
                try await PasscodeCommand.throughService(socket, .change, new: passcode, current: prompt, options: options)
            } else {
                let context = try PasscodeCommand.context(options)
                _ = try await Evaluation.run(context, console: options.console) {
                    try await PasscodeManager(context: context).change(to: passcode, prompt: prompt)
                }
            }
            options.console.success("Passcode changed for \(options.userName).", ["user": .string(options.userName)])
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove the passcode and, as on iOS, every print of the user. With --passcode-stdin: one line, the current passcode.")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Read the passcode from standard input instead of a no-echo prompt.")
        var passcodeStdin = false

        func run() async throws {
            let current = try await PasscodeCommand.currentPasscode(fromStandardInput: passcodeStdin, options: options)
            let prompt = ListedPasscodes(current.map { [$0] } ?? [])
            let removed: [PrintSummary]
            var left: [PrintSummary] = []
            if let socket = try options.serviceSocket() {
                let answer = try await PasscodeCommand.throughService(socket, .remove, new: nil, current: prompt, options: options)
                (removed, left) = (answer.removed, answer.leftOnSensor ?? [])
            } else {
                let context = try PasscodeCommand.context(options)
                removed = try await Evaluation.run(context, console: options.console) {
                    try await PasscodeManager(context: context).remove(prompt: prompt)
                }.map(PrintSummary.init)
            }
            let fingers = removed.map { "\($0.finger.rawValue) on \($0.reader)" }
            let text = "Passcode removed for \(options.userName)"
                + (fingers.isEmpty ? "." : "; prints removed with it: \(fingers.joined(separator: ", ")).")
            var fields: [String: JSONValue] = ["user": .string(options.userName),
                                               "printsRemoved": .array(removed.map { .object(ListCommand.json($0)) })]
            if !left.isEmpty {
                fields["leftOnSensor"] = .array(left.map { .object(ListCommand.json($0)) })
                options.console.note("fpbridge: the sensor still holds \(left.map(\.finger.rawValue).joined(separator: ", ")); "
                                     + "without its file it matches nothing; 'fpbridge selftest --steps clear --yes' wipes the sensor")
            }
            options.console.success(text, fields)
        }
    }

    /// The current passcode, read before the engine asks (so that the new one can follow it on stdin).
    static func currentPasscode(fromStandardInput: Bool, options: GlobalOptions) async throws(AuthError) -> Passcode? {
        try await read(fromStandardInput ? .standardInput : .terminal(prompt: "Current passcode: "), options: options)
    }

    /// Sets, changes or removes the passcode in the service; the current passcode is answered by `current`.
    @discardableResult
    static func throughService(_ socket: String, _ action: PasscodeRequest.Action, new: Passcode?, current: any AuthPrompt,
                               options: GlobalOptions) async throws -> RemovedPrints {
        var request = ServiceSession.target(PasscodeRequest(action: action), options)
        request.passcode = new?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let value = try await ServiceClient.with(socket: socket) { client in
            try await ServiceSession.run(client, "passcode", request, console: options.console, prompt: current)
        }
        return try ServiceSession.decode(value, as: RemovedPrints.self)
    }

    static func context(_ options: GlobalOptions) throws -> AuthenticationContext {
        AuthenticationContext(environment: try ReaderSession.environment(options, reader: nil))
    }

    static func newPasscode(fromStandardInput: Bool, options: GlobalOptions) async throws(AuthError) -> Passcode {
        if fromStandardInput {
            guard let passcode = try await read(.standardInput, options: options) else {
                throw AuthError(.invalidInput, "no new passcode on standard input")
            }
            return passcode
        }
        guard let first = try await read(.terminal(prompt: "New passcode: "), options: options),
              let second = try await read(.terminal(prompt: "Repeat the new passcode: "), options: options)
        else { throw AuthError(.userCancel, "no new passcode was entered") }
        guard first.isEqual(to: second) else { throw AuthError(.invalidInput, "the two passcodes differ; nothing was changed") }
        return first
    }

    /// One secret line within the configured passcode timeout; nil when there was none to read.
    private static func read(_ source: SecretInput.Source, options: GlobalOptions) async throws(AuthError) -> Passcode? {
        // Through the service the state (and its config.json) is the service's, not readable here.
        let seconds = try options.serviceSocket() == nil
            ? options.configuration().passcodeTimeoutSeconds : AuthConfiguration().passcodeTimeoutSeconds
        switch await SecretInput.read(source, timeout: .milliseconds(Int(seconds * 1000))) {
        case .entered(let passcode): return passcode
        case .noInput: return nil
        case .cancelled: throw AuthError(.userCancel, "cancelled by the user")
        case .timedOut: throw AuthError(.timedOut, "no passcode was entered within \(SecondsText.words(seconds))")
        }
    }
}
