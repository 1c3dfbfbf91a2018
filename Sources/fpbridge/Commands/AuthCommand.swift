import FPLocalAPI
import ArgumentParser
import FPAuthentication
import FPTerminal

struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Evaluate a policy the way LAContext.evaluatePolicy does.",
        discussion: """
        biometrics: a fingerprint match; at most 3 failed matches per evaluation, 5 in a row lock biometry out \
        until the passcode is entered. device-owner: fingerprint first when possible, else (or after the fallback, \
        or when locked out) the passcode. Under the fake reader, the script's 'cancel' and 'fallback' lines are the \
        user's button presses; at a terminal, Enter takes the fallback once it is offered \
        (after the first failed match) and Ctrl-C cancels.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(help: "biometrics or device-owner.")
    var policy: String = AuthPolicy.biometrics.rawValue

    @Option(help: "Why authentication is requested (shown in the prompt).")
    var reason = "Authenticate"

    @Option(help: "Title of the fallback button; an empty string hides it. Default: \"Enter Passcode\".")
    var fallbackTitle: String?

    @Option(help: "Title of the cancel button.")
    var cancelTitle: String?

    @Flag(help: "Read passcodes from standard input, one per line, instead of a no-echo prompt.")
    var passcodeStdin = false

    @Flag(help: "Fail with notInteractive (-1004) instead of asking for a finger or passcode.")
    var noInteraction = false

    @Flag(help: "When biometry is locked out, ask for the passcode, then scan again (the recovery flow in one call).")
    var recover = false

    @Option(help: "Stop scanning after this many seconds (default: scanTimeoutSeconds from config.json, 30; fpbridged waits 120 at most).")
    var timeout: Double?

    func run() async throws {
        guard let policy = AuthPolicy(rawValue: policy) else {
            throw AuthError(.invalidInput, "unknown policy '\(policy)'; use biometrics or device-owner")
        }
        if let timeout, !(timeout > 0 && timeout <= AuthConfiguration.maximumScanTimeout) {
            throw AuthError(.invalidInput, "--timeout must be more than 0 and at most \(Int(AuthConfiguration.maximumScanTimeout)) seconds")
        }
        let console = options.console
        if let socket = try options.serviceSocket() {
            var request = EvaluationRequest(operation: recover ? .recover : .evaluate)
            request.policy = policy.rawValue
            request.reason = reason
            request.fallbackTitle = fallbackTitle
            request.cancelTitle = cancelTitle
            request.interactionNotAllowed = noInteraction
            request.timeoutSeconds = timeout
            if !noInteraction { console.note(reason) }
            let success = try await ServiceSession.evaluate(socket, request, options: options,
                                                            prompt: TerminalPrompt(fromStandardInput: passcodeStdin),
                                                            fallbackKey: !(noInteraction || passcodeStdin))
            return report(success, policy: policy)
        }
        let success = try await ReaderSession.with(options, required: false) { reader in
            var environment = try ReaderSession.environment(options, reader: reader)
            if let timeout { environment.configuration.scanTimeoutSeconds = timeout }
            let context = AuthenticationContext(environment: environment)
            context.fallbackTitle = fallbackTitle
            context.cancelTitle = cancelTitle
            context.interactionNotAllowed = noInteraction
            // In a terminal, Enter takes the fallback once it is offered (never with --passcode-stdin,
            // whose input is the passcode itself).
            let key = noInteraction || passcodeStdin ? nil : FallbackKey.start { context.chooseFallback() }
            defer { key?.stop() }
            let prompt = TerminalPrompt(fromStandardInput: passcodeStdin, fallbackKey: key)
            if !noInteraction { console.note(reason) }
            return try await Evaluation.run(context, console: console, fallbackKey: key != nil) {
                if recover {
                    return try await context.recoverAndEvaluate(reason: reason, prompt: prompt)
                }
                return try await context.evaluate(policy, reason: reason, prompt: prompt)
            }
        }
        report(success, policy: policy)
    }

    private func report(_ success: AuthSuccess, policy: AuthPolicy) {
        options.console.success("Authenticated \(success.user) by \(success.method.rawValue).",
                        ["user": .string(success.user), "policy": .string(policy.rawValue),
                         "method": .string(success.method.rawValue), "finger": .optional(success.finger?.rawValue)])
    }
}
