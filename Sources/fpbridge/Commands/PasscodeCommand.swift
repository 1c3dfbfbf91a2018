import ArgumentParser
import FPAuthentication

struct PasscodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passcode",
        abstract: "Set, change or remove the user's passcode (kept only as a salted scrypt hash).",
        subcommands: [Set.self, Change.self, Remove.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the passcode. With --passcode-stdin: the current passcode first when one is set, then the new one, one per line.")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Read the passcode from standard input instead of a no-echo prompt.")
        var passcodeStdin = false

        func run() async throws {
            let context = try PasscodeCommand.context(options)
            let manager = PasscodeManager(context: context)
            let current = try manager.isSet ? PasscodeCommand.currentPasscode(fromStandardInput: passcodeStdin) : nil
            let passcode = try PasscodeCommand.newPasscode(fromStandardInput: passcodeStdin)
            try await Evaluation.run(context, console: options.console) {
                try await manager.set(passcode, prompt: ListedPasscodes(current.map { [$0] } ?? []))
            }
            options.console.success("Passcode set for \(options.userName).", ["user": .string(options.userName)])
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the passcode. With --passcode-stdin: the current passcode, then the new one, one per line.")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Read passcodes from standard input instead of no-echo prompts.")
        var passcodeStdin = false

        func run() async throws {
            let context = try PasscodeCommand.context(options)
            let current = PasscodeCommand.currentPasscode(fromStandardInput: passcodeStdin)
            let passcode = try PasscodeCommand.newPasscode(fromStandardInput: passcodeStdin)
            _ = try await Evaluation.run(context, console: options.console) {
                try await PasscodeManager(context: context).change(to: passcode, prompt: ListedPasscodes(current.map { [$0] } ?? []))
            }
            options.console.success("Passcode changed for \(options.userName).", ["user": .string(options.userName)])
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the passcode and, as on iOS, every print of the user. With --passcode-stdin: one line, the current passcode.")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Read the passcode from standard input instead of a no-echo prompt.")
        var passcodeStdin = false

        func run() async throws {
            let context = try PasscodeCommand.context(options)
            let current = PasscodeCommand.currentPasscode(fromStandardInput: passcodeStdin)
            let removed = try await Evaluation.run(context, console: options.console) {
                try await PasscodeManager(context: context).remove(prompt: ListedPasscodes(current.map { [$0] } ?? []))
            }
            let fingers = removed.map { "\($0.finger.rawValue) on \($0.reader)" }
            let text = "Passcode removed for \(options.userName)"
                + (fingers.isEmpty ? "." : "; prints removed with it: \(fingers.joined(separator: ", ")).")
            options.console.success(text, ["user": .string(options.userName), "printsRemoved": .array(removed.map { .object(ListCommand.json($0)) })])
        }
    }

    static func currentPasscode(fromStandardInput: Bool) -> String? {
        fromStandardInput ? readLine(strippingNewline: true) : TerminalPrompt.readHidden("Current passcode: ")
    }

    static func context(_ options: GlobalOptions) throws -> AuthenticationContext {
        AuthenticationContext(environment: try ReaderSession.environment(options, reader: nil))
    }

    static func newPasscode(fromStandardInput: Bool) throws(AuthError) -> String {
        if fromStandardInput {
            guard let line = readLine(strippingNewline: true) else {
                throw AuthError(.invalidInput, "no new passcode on standard input")
            }
            return line
        }
        guard let first = TerminalPrompt.readHidden("New passcode: "),
              let second = TerminalPrompt.readHidden("Repeat the new passcode: ")
        else { throw AuthError(.invalidInput, "no new passcode was entered") }
        guard first == second else { throw AuthError(.invalidInput, "the two passcodes differ; nothing was changed") }
        return first
    }
}
