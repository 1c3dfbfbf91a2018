import FPLocalAPI
import ArgumentParser
import FPAuthentication
import FPTerminal

struct UnlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Enter the passcode to make a locked-out fingerprint usable again.")

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Read the passcode from standard input instead of a no-echo prompt.")
    var passcodeStdin = false

    func run() async throws {
        let console = options.console
        let reason = "Passcode to unlock fingerprint"
        let success: AuthSuccess
        if let socket = try options.serviceSocket() {
            var request = EvaluationRequest(operation: .unlock)
            request.reason = reason
            success = try await ServiceSession.evaluate(socket, request, options: options,
                                                        prompt: TerminalPrompt(fromStandardInput: passcodeStdin))
        } else {
            success = try await ReaderSession.with(options, required: false) { reader in
                let context = AuthenticationContext(environment: try ReaderSession.environment(options, reader: reader))
                return try await Evaluation.run(context, console: console) {
                    try await context.unlockWithPasscode(reason: reason, prompt: TerminalPrompt(fromStandardInput: passcodeStdin))
                }
            }
        }
        console.success("Fingerprint unlocked for \(success.user).", ["user": .string(success.user), "unlocked": true])
    }
}
