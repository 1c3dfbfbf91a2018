import ArgumentParser
import FPAuthentication
import FPStore

struct EnrollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll", abstract: "Enroll a finger, showing progress per stage.")

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp(FingerOption.help, valueName: "name"))
    var finger: String

    @Flag(help: "Enroll the finger again even if it is already enrolled.")
    var replace = false

    func run() async throws {
        let finger = try FingerOption.parse(finger)
        let console = options.console
        let record: PrintRecord = try await ReaderSession.with(options) { reader in
            let environment = try ReaderSession.environment(options, reader: reader)
            if let scanType = await reader?.info.scanType {
                console.note("Enrolling \(environment.user)'s \(finger.rawValue). \(scanType.instruction), lifting it between scans.")
            }
            var saved: PrintRecord?
            for try await update in Enrollment(environment: environment).enroll(finger, replace: replace) {
                switch update {
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
