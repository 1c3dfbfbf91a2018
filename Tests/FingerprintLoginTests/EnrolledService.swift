import Foundation
import Testing
import TestSupport

/// A real fpbridged on libfprint's `virtual_device`, with the caller's passcode set and a finger
/// enrolled through the CLI, as a user would.
struct EnrolledService {
    let service: ServiceProcess
    /// The virtual reader's socket: `VirtualReaderDriver.send(reader, ["SCAN me"])` touches it.
    let reader: String

    init(arguments: [String] = []) async throws {
        reader = TemporaryDirectory.socketPath()
        // The reader stays open between operations: a finger played while the service closed
        // an idle reader would be dropped by virtual_device, and the tests play each finger
        // as soon as the reader listens.
        let virtual = ["FP_VIRTUAL_DEVICE": reader, "FP_DRIVERS_WHITELIST": "virtual_device"]
        service = try await ServiceProcess(environment: virtual, arguments: ["--reader-idle-seconds", "60"] + arguments)
        let cli = ["--json", "--reader", "libfprint:virtual_device"]
        let environment = service.clientEnvironment.merging(virtual) { $1 }
        #expect(try await Fpbridge.run(cli + ["passcode", "set", "--passcode-stdin"], environment: environment, input: "2468\n").status == 0)
        async let enrolled = Fpbridge.run(cli + ["enroll", "--finger", "right-index", "--passcode-stdin"], environment: environment,
                                          input: "2468\n")
        for _ in 0..<5 { _ = try await VirtualReaderDriver.send(reader, ["SCAN me"]) }
        #expect(try await enrolled.status == 0)
    }
}
