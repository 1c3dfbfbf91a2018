import ArgumentParser
import FPAuthentication
import FPTerminal
import FPStore

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

    func run() async throws {
        let finger = try FingerOption.parse(finger)
        let console = options.console
        let record: PrintRecord = try await ReaderSession.with(options) { reader in
            let environment = try ReaderSession.environment(options, reader: reader)
            let context = AuthenticationContext(environment: environment)
            let prompt = TerminalPrompt(fromStandardInput: passcodeStdin)
            var saved: PrintRecord?
            for try await update in Enrollment(context: context).enroll(finger, replace: replace, prompt: prompt) {
                switch update {
                case .presentFinger(let scanType, let stages):
                    console.note("Enrolling \(environment.user)'s \(finger.rawValue) in \(stages) scans. "
                                 + "\(scanType.instruction), lifting it between scans.")
                case .stage(let completed, let total): console.note("  stage \(completed)/\(total) done")
                case .retry(let reason): console.note("  \(reason.hint)")
                case .saved(let record): saved = record
                }
            }
            guard let saved else { throw AuthError(.readerFailure, "the reader ended the enrollment without a print") }
            return saved
        }
        console.success("Enrolled \(record.user)'s \(record.finger.rawValue) on \(record.reader).",
                        ListCommand.json(record))
    }
}
