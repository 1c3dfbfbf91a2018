import FPLocalAPI
import ArgumentParser
import FPAuthentication

struct IdentifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identify",
        abstract: "Find who is at the reader among all users enrolled on it.",
        discussion: """
            On image readers fpbridge scores every print and answers with the best-scoring person, at a threshold \
            that rises with the number of prints enrolled; a touch too close to call asks for one more touch of the \
            same finger, and each touch prints how sure it was (docs/kiosk.md, "Who a touch belongs to"). \
            Failures count per reader, so that cycling through users gives no extra attempts. \
            Past identificationOpenGalleryLimit prints (2000 by default) an identification among everyone is refused: \
            --claimed names the person (as the kiosk's badge does), and only their prints are compared.
            """)

    @OptionGroup var options: GlobalOptions

    @Option(help: "Failed matches allowed before giving up (at most the policy's limit, 3 by default).")
    var attempts = 1

    @Option(name: .customLong("claimed"), help: ArgumentHelp("Compare the touch with this user's prints only (the person named themselves, as with a badge); failures still count per reader.", valueName: "user"))
    var claimedUser: String?

    func run() async throws {
        guard attempts >= 1 else { throw AuthError(.invalidInput, "--attempts must be at least 1") }
        if let claimedUser {
            do { try PathComponent.validateUser(claimedUser) } catch {
                throw AuthError(.invalidInput, "--claimed: \(error)")
            }
        }
        let console = options.console
        let success: AuthSuccess
        if let socket = try options.serviceSocket() {
            var request = EvaluationRequest(operation: .identify)
            request.reason = "identify"
            request.attempts = attempts
            request.claimedUser = claimedUser
            success = try await ServiceSession.evaluate(socket, request, options: options)
        } else {
            success = try await ReaderSession.with(options) { reader in
                let context = AuthenticationContext(environment: try ReaderSession.environment(options, reader: reader))
                return try await Evaluation.run(context, console: console) {
                    try await context.identify(reason: "identify", options: BiometricOptions(maxFailedMatches: attempts, claimedUser: claimedUser))
                }
            }
        }
        console.success("Identified \(success.user) (\(success.finger?.rawValue ?? "finger")).",
                        ["match": true, "user": .string(success.user), "finger": .optional(success.finger?.rawValue)])
    }
}
