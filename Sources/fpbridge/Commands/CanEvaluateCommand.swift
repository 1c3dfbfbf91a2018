import ArgumentParser
import FPAuthentication

struct CanEvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "can-evaluate",
        abstract: "Whether a policy can be evaluated now, without touching the user (LAContext.canEvaluatePolicy).",
        discussion: "Checks, in order: reader present, passcode set, print enrolled, not locked out. Exit 0 when available.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "biometrics or device-owner.")
    var policy: String = AuthPolicy.biometrics.rawValue

    func run() async throws {
        guard let policy = AuthPolicy(rawValue: policy) else {
            throw AuthError(.invalidInput, "unknown policy '\(policy)'; use biometrics or device-owner")
        }
        let availability = try await ReaderSession.with(options, required: false) { reader in
            await AuthenticationContext(environment: try ReaderSession.environment(options, reader: reader)).canEvaluate(policy)
        }
        let fields: [String: JSONValue] = [
            "available": .bool(availability.available), "policy": .string(policy.rawValue),
            "biometryType": .string(availability.biometryType.rawValue),
            "scanType": .optional(availability.scanType?.rawValue), "user": .string(options.userName),
        ]
        if let error = availability.error {
            throw ExitCode(options.console.failure(error, fields))
        }
        options.console.success("\(policy.rawValue) is available (biometry: \(availability.biometryType.rawValue)).", fields)
    }
}
