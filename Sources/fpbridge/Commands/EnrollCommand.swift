import ArgumentParser
import FPAuthentication
import FPLocalAPIEngine
import FPServiceClient
import FPStore
import FPTerminal

struct EnrollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll", abstract: "Enroll a finger, showing progress per stage.",
        discussion: "As on iOS, a passcode must be set first and is asked for before the first scan.")

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp(FingerOption.help, valueName: "name"))
    var finger: String

    @Flag(help: "Enroll the finger again even if it is already enrolled.")
    var replace = false

    @Flag(help: "Read the passcode from standard input (one line) instead of a no-echo prompt.")
    var passcodeStdin = false

    @Flag(help: ArgumentHelp(
        "Enroll at a kiosk's reader (an administrator, through fpbridged): the kiosk's identification pauses and its page shows the progress.",
        discussion: "Without it, an enrollment is refused while a kiosk's identification is armed on the reader, which would take the first scan."))
    var atKiosk = false

    @Option(help: ArgumentHelp(
        "Then bind this device to the user's account at this login server (fpbridge account bind): what a kiosk's --server welcome needs.",
        discussion: "A finger added ends the user's binding (the key answers to the fingers enrolled when it was made), so an enrollment for a kiosk with a login server binds again here, with the person present: their account password, and with --binding-code an operator's code.",
        valueName: "url"))
    var bind: String?

    @Option(help: "With --bind: the account's name (default: the user).")
    var account: String?

    @Flag(help: "With --bind: ask for a one-time binding code (an operator's, or 'fpbridge account invite' on a bound device).")
    var bindingCode = false

    @Flag(help: "With --bind: read the account password from standard input, the line after the passcode (with --binding-code, the code on the next).")
    var passwordStdin = false

    func validate() throws {
        if bind == nil, account != nil || bindingCode || passwordStdin {
            throw ValidationError("--account, --binding-code and --password-stdin go with --bind URL")
        }
        // Refused before the scans, not after them.
        if let bind, AccountCommand.ServerOptions.serverURL(bind) == nil {
            throw ValidationError("--bind \(bind): expected the login server as http(s)://HOST[:PORT]")
        }
    }

    func run() async throws {
        let finger = try FingerOption.parse(finger)
        let console = options.console
        let user = options.userName
        let prompt = TerminalPrompt(fromStandardInput: passcodeStdin)
        let show: @Sendable (EnrollmentProgress) -> Void = { progress in
            switch progress {
            case .presentFinger(let scanType, let stages):
                console.note("Enrolling \(user)'s \(finger.rawValue) in \(stages) scans. "
                             + "\(scanType.instruction), lifting it between scans.")
            case .stage(let completed, let total): console.note("  stage \(completed)/\(total) done")
            case .retry(let reason): console.note("  \(reason.hint)")
            case .saved: break
            }
        }
        let saved: PrintSummary
        if let socket = try options.serviceSocket() {
            var request = ServiceSession.target(EnrollmentRequest(finger: finger), options)
            request.replace = replace
            if atKiosk {
                request.atKiosk = true
                console.note("The kiosk's identification pauses; its page shows the progress until the enrollment ends.")
            }
            let value = try await ServiceClient.with(socket: socket) { client in
                try await ServiceSession.run(client, "enrollments", request, console: console, prompt: prompt, enrollment: show)
            }
            saved = try ServiceSession.decode(value, as: PrintSummary.self)
        } else {
            // A kiosk reaches its reader through fpbridged only: there is no kiosk to pause here.
            if atKiosk {
                throw ValidationError("--at-kiosk needs fpbridged, the kiosk's service: give --service PATH, or start fpbridged")
            }
            saved = try await ReaderSession.with(options) { reader in
                let context = AuthenticationContext(environment: try ReaderSession.environment(options, reader: reader))
                var saved: PrintSummary?
                for try await update in Enrollment(context: context).enroll(finger, replace: replace, prompt: prompt) {
                    let progress = EnrollmentProgress(update)
                    show(progress)
                    if case .saved(let print) = progress { saved = print }
                }
                guard let saved else { throw AuthError(.readerFailure, "the reader ended the enrollment without a print") }
                return saved
            }
        }
        let enrolled = "Enrolled \(saved.user)'s \(saved.finger.rawValue) on \(saved.reader)."
        guard let bind else { return console.success(enrolled, ListCommand.json(saved)) }
        // One object on stdout with --json: the binding's; the enrollment is told on stderr.
        console.note(enrolled)
        do {
            try await binding(to: bind).run()
        } catch {
            console.note("The finger stays enrolled; bind again with 'fpbridge --user \(saved.user) account bind --server \(bind)'.")
            throw error
        }
    }

    /// `fpbridge account bind` as this command's options and the --bind ones would give it.
    private func binding(to server: String) throws -> AccountCommand.Bind {
        var arguments = ["--server", server]
        if let account { arguments += ["--account", account] }
        if bindingCode { arguments.append("--binding-code") }
        if passwordStdin { arguments.append("--password-stdin") }
        var command = try AccountCommand.Bind.parse(arguments)
        command.options = options
        return command
    }
}
