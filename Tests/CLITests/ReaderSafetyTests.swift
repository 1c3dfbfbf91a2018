import Foundation
import Testing
import TestSupport

/// What keeps a real reader safe and honest: overheating, prompts that time out,
/// and prints that never leave the reader that made them.
@Suite(.serialized) struct ReaderSafetyTests: VirtualReaderHarness {
    let directory = TemporaryDirectory()

    @Test func anOverheatedReaderIsItsOwnErrorWithRetryAfter() async throws {
        let socket = TemporaryDirectory.socketPath()
        try await enrollRightIndex("virtual_device", socket: socket)
        // libfprint reports TOO_HOT as FpDeviceError 257; the virtual reader can raise it on demand.
        let hot = try await run("virtual_device", socket: socket, ["verify"], while: ["ERROR 257"])
        #expect(hot.errorCode == -2001 && hot.status == 3, "\(hot.stdout)")
        let retryAfter = (hot.json["error"] as? [String: Any])?["retryAfter"] as? Double
        #expect((retryAfter ?? 0) >= 180, "retryAfter must cover libfprint's cooling time")
        let status = try await run("virtual_device", socket: socket, ["status"])
        #expect(status.json["biometry"].flatMap { ($0 as? [String: Any])?["failures"] as? Int } == 0,
                "an overheated reader is not a failed match")
        #expect((status.json["reader"] as? [String: Any])?["temperature"] as? String == "cold")
    }

    @Test func anUnansweredPromptStopsScanningAtItsTimeout() async throws {
        let socket = TemporaryDirectory.socketPath()
        try await enrollRightIndex("virtual_device", socket: socket)
        _ = try await run("virtual_device", socket: socket, ["passcode", "set", "--passcode-stdin"], input: "2468\n")
        let start = Date()
        let result = try await run("virtual_device", socket: socket, ["auth", "--policy", "biometrics", "--timeout", "1"])
        let took = Date().timeIntervalSince(start)
        #expect(result.errorCode == -2003 && result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(took < 10, "the reader was still armed \(took) s after a 1 s timeout")
        let status = try await run("virtual_device", socket: socket, ["status"])
        #expect((status.json["biometry"] as? [String: Any])?["failures"] as? Int == 0, "a timeout is not a failed match")
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"))
    func aPrintIsNeverOfferedToAnotherReader() async throws {
        let device = TemporaryDirectory.socketPath(), image = TemporaryDirectory.socketPath()
        let both = ["FP_VIRTUAL_DEVICE": device, "FP_VIRTUAL_IMAGE": image]
        let state = directory.file("state")
        func fpbridge(_ arguments: [String]) async throws -> CommandResult {
            var arguments = arguments, input = ""
            if arguments.contains("enroll") { (arguments, input) = try await PasscodeFirst.enroll(arguments, state: state, user: "alice") }
            return try await Fpbridge.run(["--json", "--state-dir", state, "--user", "alice"] + arguments, environment: both, input: input)
        }
        let readers = try await fpbridge(["readers"])
        let drivers = Set((readers.json["readers"] as? [[String: Any]] ?? []).compactMap { $0["driver"] as? String })
        #expect(drivers.isSuperset(of: ["virtual_device", "virtual_image"]))

        async let enroll = fpbridge(["--reader", "libfprint:virtual_device", "enroll", "--finger", "right-index"])
        try await VirtualReaderDriver.send(device, Array(repeating: "SCAN p1", count: 5))
        #expect(try await enroll.status == 0)

        let elsewhere = try await fpbridge(["--reader", "libfprint:virtual_image", "verify"])
        #expect(elsewhere.errorCode == -7, "virtual_image must not be offered virtual_device's print: \(elsewhere.stdout)")
        let listed = try await fpbridge(["--reader", "libfprint:virtual_image", "list"])
        #expect((listed.json["prints"] as? [[String: Any]])?.first?["driver"] as? String == "virtual_device")

        async let verify = fpbridge(["--reader", "libfprint:virtual_device", "verify"])
        try await VirtualReaderDriver.send(device, ["SCAN p1"])
        #expect(try await verify.status == 0)
    }
}
