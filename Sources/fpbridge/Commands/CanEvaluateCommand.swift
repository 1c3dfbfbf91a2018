import ArgumentParser
import FPAuthentication
import FPLocalAPIEngine
import FPServiceClient

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
        let result: AvailabilityResult
        if let socket = try options.serviceSocket() {
            let request = ServiceSession.target(CanEvaluateRequest(policy: policy.rawValue), options)
            result = try await ServiceClient.with(socket: socket) { try await $0.post("can-evaluate", request) }
        } else {
            let availability = try await ReaderSession.with(options, required: false) { reader in
                await AuthenticationContext(environment: try ReaderSession.environment(options, reader: reader)).canEvaluate(policy)
            }
            result = AvailabilityResult(user: options.userName, availability)
        }
        let fields: [String: JSONValue] = [
            "available": .bool(result.error == nil), "policy": .string(policy.rawValue),
            "biometryType": .string(result.biometryType.rawValue),
            "scanType": .optional(result.scanType?.rawValue), "user": .string(result.user),
        ]
        if let error = result.error {
            throw ExitCode(options.console.failure(error.error, fields))
        }
        options.console.success("\(policy.rawValue) is available (biometry: \(result.biometryType.rawValue)).", fields)
    }
}
