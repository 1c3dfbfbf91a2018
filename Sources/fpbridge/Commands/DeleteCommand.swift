import ArgumentParser
import FPAuthentication
import FPLocalAPIEngine
import FPServiceClient

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete enrolled prints of the user on the selected reader (on the sensor too for on-chip prints).")

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp(FingerOption.help, valueName: "name"))
    var finger: String?

    @Flag(help: "Delete every print of the user on this reader.")
    var all = false

    func run() async throws {
        guard (finger == nil) != !all else {
            throw AuthError(.invalidInput, "give either --finger NAME or --all")
        }
        let finger = try finger.map { name throws(AuthError) in try FingerOption.parse(name) }
        let deleted: [PrintSummary]
        if let socket = try options.serviceSocket() {
            let request = ServiceSession.target(DeletePrintsRequest(finger: finger), options)
            let result: RemovedPrints = try await ServiceClient.with(socket: socket) { try await $0.post("prints/delete", request) }
            deleted = result.removed
        } else {
            deleted = try await ReaderSession.with(options) { reader in
                try await Enrollment(context: AuthenticationContext(environment: try ReaderSession.environment(options, reader: reader))).delete(finger)
            }.map(PrintSummary.init)
        }
        options.console.success(
            deleted.map { "Deleted \($0.user)'s \($0.finger.rawValue) on \($0.reader)." }.joined(separator: "\n"),
            ["user": .string(options.userName), "deleted": .array(deleted.map { .string($0.finger.rawValue) })])
    }
}
