import ArgumentParser
import FPAuthentication
import FPLocalAPIEngine
import FPServiceClient
import FPStore
import FoundationEssentials
import Glibc

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the user's enrolled fingers on every reader (opens no reader).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let list: PrintList
        if let socket = try options.serviceSocket() {
            let query = ServiceSession.query(options)
            list = try await ServiceClient.with(socket: socket) { try await $0.get("prints", query: query) }
        } else {
            let user = options.userName
            do {
                list = PrintList(user: user, entries: try PrintStore(directory: options.stateDirectory).checkedEntries(user: user, reader: nil))
            } catch {
                throw AuthError(error)
            }
        }
        let lines = list.prints.map { "\($0.finger.rawValue)\t\($0.reader)\t\($0.enrolledAt.formatted(.iso8601))" }
            + list.damaged.map { "DAMAGED\t\($0) (fpbridge repair)" }
        let text = lines.isEmpty ? "\(list.user) has no enrolled fingers." : lines.joined(separator: "\n")
        options.console.success(text, ["user": .string(list.user), "prints": .array(list.prints.map(Self.json).map(JSONValue.object)),
                                       "damaged": .array(list.damaged.map(JSONValue.string))])
    }

    static func json(_ print: PrintSummary) -> [String: JSONValue] {
        [
            "user": .string(print.user), "finger": .string(print.finger.rawValue),
            "driver": .string(print.reader.driver), "deviceId": .string(print.reader.deviceID),
            "enrolledAt": .string(print.enrolledAt.formatted(.iso8601)),
            "storedOnDevice": .bool(print.storedOnDevice),
        ]
    }
}
