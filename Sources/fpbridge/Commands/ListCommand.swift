import ArgumentParser
import FPAuthentication
import FPStore
import Foundation

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the user's enrolled fingers on every reader (opens no reader).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let user = options.userName
        let entries: [PrintEntry]
        do {
            entries = try PrintStore(directory: options.stateDirectory).checkedEntries(user: user, reader: nil)
        } catch {
            throw AuthError(error)
        }
        let records = entries.compactMap(\.record)
        let damaged = entries.compactMap { entry -> String? in
            if case .damaged(let error) = entry { return error.description }
            return nil
        }
        let lines = records.map { "\($0.finger.rawValue)\t\($0.reader)\t\(ISO8601DateFormatter().string(from: $0.enrolledAt))" }
            + damaged.map { "DAMAGED\t\($0) (fpbridge repair)" }
        let text = lines.isEmpty ? "\(user) has no enrolled fingers." : lines.joined(separator: "\n")
        options.console.success(text, ["user": .string(user), "prints": .array(records.map(Self.json).map(JSONValue.object)),
                                       "damaged": .array(damaged.map(JSONValue.string))])
    }

    static func json(_ record: PrintRecord) -> [String: JSONValue] {
        [
            "user": .string(record.user), "finger": .string(record.finger.rawValue),
            "driver": .string(record.reader.driver), "deviceId": .string(record.reader.deviceID),
            "enrolledAt": .string(ISO8601DateFormatter().string(from: record.enrolledAt)),
            "storedOnDevice": .bool(record.storedOnDevice),
        ]
    }
}
