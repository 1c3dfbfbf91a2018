import FPLocalAPI
import ArgumentParser
import FPAuthentication

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the user's finger, with the engine's counters and lockout.",
        discussion: "A failed match counts toward lockout like any other; a locked-out user gets biometryLockout (-8) without a scan.")

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp(FingerOption.help + ", or any", valueName: "name"))
    var finger = "any"

    @Option(help: "Failed matches allowed before giving up (at most the policy's limit, 3 by default).")
    var attempts = 1

    func run() async throws {
        let finger = try FingerOption.parseOrAny(finger)
        guard attempts >= 1 else { throw AuthError(.invalidInput, "--attempts must be at least 1") }
        let console = options.console
        let success: AuthSuccess
        if let socket = try options.serviceSocket() {
            var request = EvaluationRequest(operation: .verify)
            request.reason = "verify"
            request.fingers = finger.map { [$0] }
            request.attempts = attempts
            success = try await ServiceSession.evaluate(socket, request, options: options)
        } else {
            success = try await ReaderSession.with(options) { reader in
                let context = AuthenticationContext(environment: try ReaderSession.environment(options, reader: reader))
                let biometric = BiometricOptions(fingers: finger.map { [$0] }, maxFailedMatches: attempts)
                return try await Evaluation.run(context, console: console) {
                    try await context.verifyFinger(reason: "verify", options: biometric)
                }
            }
        }
        console.success("Match: \(success.user)'s \(success.finger?.rawValue ?? "finger").",
                        ["match": true, "user": .string(success.user), "finger": .optional(success.finger?.rawValue)])
    }
}
