import Foundation
import Testing
import TestSupport

/// Identification counts failures per reader, not per user: cycling through users
/// gives an attacker no extra attempts. Run on the fake reader and on libfprint's
/// identify-capable `virtual_device_storage` (plain `virtual_device` cannot identify).
@Suite(.serialized) struct IdentificationTests: VirtualReaderHarness {
    enum IdentifyBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case fake
        case virtualDeviceStorage
        var testDescription: String { rawValue }
    }

    let directory = TemporaryDirectory()

    /// Runs a command with `touches` (finger ids). The storage reader's sensor memory lasts
    /// one process, so each process first gets back the prints enrolled so far (`INSERT`).
    func run(_ backend: IdentifyBackend, _ arguments: [String], user: String = "alice", touches: [String],
             onSensor: [String]) async throws -> CommandResult {
        switch backend {
        case .fake:
            var arguments = arguments, input = ""
            if arguments.first == "enroll" {
                (arguments, input) = try await PasscodeFirst.enroll(arguments, state: directory.file("state"), user: user)
            }
            let base = ["--json", "--state-dir", directory.file("state"), "--user", user]
            let script = directory.file("script-\(UUID().uuidString.prefix(8)).txt")
            try touches.map { "scan \($0)" }.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
            return try await Fpbridge.run(base + ["--reader", "fake:" + script] + arguments, input: input)
        case .virtualDeviceStorage:
            // No touch: the command must end without scanning, and may be gone before a send could land.
            let commands = touches.isEmpty ? [] : onSensor.map { "INSERT \($0)" } + touches.map { "SCAN \($0)" }
            return try await run("virtual_device_storage", socket: TemporaryDirectory.socketPath(), arguments, user: user,
                                 while: commands)
        }
    }

    @Test(arguments: IdentifyBackend.allCases)
    func identificationCountsPerReaderNotPerUser(backend: IdentifyBackend) async throws {
        #expect(try await run(backend, ["enroll", "--finger", "right-index"], touches: Array(repeating: "a1", count: 5),
                              onSensor: []).status == 0)
        #expect(try await run(backend, ["enroll", "--finger", "left-index"], user: "bob", touches: Array(repeating: "b1", count: 5),
                              onSensor: ["a1"]).status == 0)
        let sensor = ["a1", "b1"]
        let bob = try await run(backend, ["identify"], touches: ["b1"], onSensor: sensor)
        #expect(bob.json["user"] as? String == "bob", "\(bob.stdout)")
        for attempt in 1...5 {
            let stranger = try await run(backend, ["identify"], touches: ["mallory"], onSensor: sensor)
            #expect(stranger.errorCode == (attempt < 5 ? -1 : -8), "attempt \(attempt): \(stranger.stdout)")
        }
        let locked = try await run(backend, ["identify"], touches: backend == .fake ? ["b1"] : [], onSensor: sensor)
        #expect(locked.errorCode == -8, "identification on this reader is locked out: \(locked.stdout)")
        // Alice's own count is untouched: her verification still works.
        let alice = try await run(backend, ["verify"], touches: ["a1"], onSensor: sensor)
        #expect(alice.status == 0, "\(alice.stdout)")
    }
}
