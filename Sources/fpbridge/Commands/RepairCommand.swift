import FPLocalAPIEngine
import ArgumentParser
import FPAuthentication
import FPServiceClient

struct RepairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Find damaged state files and, with --yes, repair them (the administrator's way out of fail-closed state).",
        discussion: """
        A damaged counter locks biometry out and refuses the passcode until it is repaired. Every damaged file is \
        moved to damaged/ in the state directory, never deleted, and replaced by the safest state: a counter by a \
        locked-out one (the owner's passcode unlocks it), a passcode by none together with that user's prints (set a \
        passcode and enroll again), a print by nothing (enroll it again), a user's times record by a remote lock (the password or \
        passcode lifts it), config.json by the defaults. Without --yes it only lists what it found \
        and exits 3 if anything is damaged.
        """)

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Repair what was found.")
    var yes = false

    func run() async throws {
        let result: RepairResult
        if let socket = try options.serviceSocket() {
            let request = ServiceSession.target(RepairRequest(yes: yes), options)
            result = try await ServiceClient.with(socket: socket) { try await $0.post("repair", request) }
        } else {
            result = try RepairResult.run(options.stateDirectory, yes: yes)
        }
        let listed: [JSONValue] = result.findings.map {
            ["kind": .string($0.kind), "path": .string($0.path), "problem": .string($0.problem), "action": .string($0.action)]
        }
        let lines = result.findings.map { "\($0.kind)\t\($0.path)\n\t\($0.problem)\n\tfix: \($0.action)" }
        if result.findings.isEmpty {
            options.console.success("No damaged state in \(result.stateDirectory).", ["findings": .array([]), "repaired": false])
            return
        }
        guard result.repaired else {
            throw CommandFailure(
                error: AuthError(.stateDamaged, (lines + ["Run 'fpbridge repair --yes' to repair."]).joined(separator: "\n")),
                fields: ["findings": .array(listed)])
        }
        options.console.success((lines + ["Repaired; the damaged files are kept in:"] + result.movedTo.map { "\t" + $0 }).joined(separator: "\n"),
                                ["findings": .array(listed), "repaired": true, "movedTo": .array(result.movedTo.map(JSONValue.string))])
    }
}
