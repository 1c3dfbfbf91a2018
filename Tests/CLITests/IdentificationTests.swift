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
        /// The touches an enrollment takes: the storage reader identifies first (fprintd's
        /// duplicate check), one scan before its five.
        var enrollScans: Int { self == .fake ? 5 : 6 }
    }

    let directory = TemporaryDirectory()

    /// Runs a command with `touches` (finger ids). The storage reader's sensor memory lasts
    /// one process, so each process first gets back the prints enrolled so far (`INSERT`).
    func run(_ backend: IdentifyBackend, _ arguments: [String], user: String = "alice", touches: [String],
             onSensor: [String], input: String = "") async throws -> CommandResult {
        switch backend {
        case .fake:
            var arguments = arguments, input = input
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
                                 input: input, while: commands)
        }
    }

    @Test(arguments: IdentifyBackend.allCases)
    func identificationCountsPerReaderNotPerUser(backend: IdentifyBackend) async throws {
        #expect(try await run(backend, ["enroll", "--finger", "right-index"], touches: Array(repeating: "a1", count: backend.enrollScans),
                              onSensor: []).status == 0)
        #expect(try await run(backend, ["enroll", "--finger", "left-index"], user: "bob", touches: Array(repeating: "b1", count: backend.enrollScans),
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

    /// Alice and Bob enrolled on the reader (a1, b1); returns what the sensor holds.
    func enrollAliceAndBob(_ backend: IdentifyBackend) async throws -> [String] {
        #expect(try await run(backend, ["enroll", "--finger", "right-index"], touches: Array(repeating: "a1", count: backend.enrollScans),
                              onSensor: []).status == 0)
        #expect(try await run(backend, ["enroll", "--finger", "left-index"], user: "bob", touches: Array(repeating: "b1", count: backend.enrollScans),
                              onSensor: ["a1"]).status == 0)
        return ["a1", "b1"]
    }

    @Test(arguments: IdentifyBackend.allCases)
    func aLockedOutUserIsNeverIdentified(backend: IdentifyBackend) async throws {
        let sensor = try await enrollAliceAndBob(backend)
        for _ in 1...5 { _ = try await run(backend, ["verify"], touches: ["mallory"], onSensor: sensor) }
        let alice = try await run(backend, ["identify"], touches: ["a1"], onSensor: sensor)
        #expect(alice.errorCode == -1 && alice.json["user"] == nil, "alice is locked out: \(alice.stdout)")
        let bob = try await run(backend, ["identify"], touches: ["b1"], onSensor: sensor)
        #expect(bob.json["user"] as? String == "bob", "\(bob.stdout)")
    }

    @Test(arguments: IdentifyBackend.allCases)
    func onlyAUserEnrolledBeforeTheLockoutCanLiftIt(backend: IdentifyBackend) async throws {
        let sensor = try await enrollAliceAndBob(backend)
        for _ in 1...5 { _ = try await run(backend, ["identify"], touches: ["stranger"], onSensor: sensor) }
        let locked = try await run(backend, ["identify"], touches: backend == .fake ? ["a1"] : [], onSensor: sensor)
        #expect(locked.errorCode == -8 && ((locked.json["error"] as? [String: Any])?["retryAfter"] as? Double ?? 0) > 0,
                "a timed lockout says when: \(locked.stdout)")
        // A new user name with a new passcode gets nothing.
        #expect(try await run(backend, ["passcode", "set", "--passcode-stdin"], user: "mallory", touches: [], onSensor: [],
                              input: "1111\n").status == 0)
        #expect(try await run(backend, ["unlock", "--passcode-stdin"], user: "mallory", touches: [], onSensor: [],
                              input: "1111\n").status == 0)
        let still = try await run(backend, ["identify"], touches: backend == .fake ? ["a1"] : [], onSensor: sensor)
        #expect(still.errorCode == -8, "mallory's passcode lifted the reader's lockout: \(still.stdout)")
        // Bob was enrolled before it began.
        #expect(try await run(backend, ["unlock", "--passcode-stdin"], user: "bob", touches: [], onSensor: [],
                              input: "2468\n").status == 0)
        let alice = try await run(backend, ["identify"], touches: ["a1"], onSensor: sensor)
        #expect(alice.json["user"] as? String == "alice", "\(alice.stdout)")
    }

    /// Identification reads and decodes each print file once (it used to read every file twice).
    @Test func identificationReadsEachPrintFileOnce() async throws {
        _ = try await enrollAliceAndBob(.fake)
        let trace = directory.file("openat.log")
        let script = directory.file("touch.txt")
        try "scan b1".write(toFile: script, atomically: true, encoding: .utf8)
        let result = try await Fpbridge.run(["--json", "--state-dir", directory.file("state"), "--user", "alice",
                                             "--reader", "fake:" + script, "identify"],
                                            launcher: ["/usr/bin/strace", "-f", "-qq", "-e", "trace=openat", "-o", trace])
        #expect(result.json["user"] as? String == "bob", "\(result.stdout)\(result.stderr)")
        let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("/prints/") && $0.contains(".json") }
        for file in ["alice/fake/0/right-index.json", "bob/fake/0/left-index.json"] {
            #expect(opens.filter { $0.contains(file) }.count == 1, "\(file): \(opens)")
        }
    }

    /// A print whose file is valid JSON but whose bytes are damaged (libfprint would abort
    /// the process on some of them): named by path for its owner, skipped for everyone else.
    @Test(arguments: IdentifyBackend.allCases)
    func aDamagedPrintIsNamedSkippedForOthersListedAndRepaired(backend: IdentifyBackend) async throws {
        let sensor = try await enrollAliceAndBob(backend)
        let driver = backend == .fake ? "fake" : "virtual_device_storage"
        let path = directory.file("state/prints/alice/\(driver)/0/right-index.json")
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let bytes = try #require(Data(base64Encoded: record["print"] as? String ?? ""))
        record["print"] = bytes.prefix(bytes.count * 2 / 3).base64EncodedString()
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path))
        // Refused before any scan (on the storage reader nothing is played, as the reader is gone at once).
        let alice = try await run(backend, ["verify"], touches: backend == .fake ? ["a1"] : [], onSensor: sensor)
        #expect(alice.status == 3 && alice.errorCode == -2005 && alice.errorMessage.contains(path), "\(alice.stdout)\(alice.stderr)")
        let bob = try await run(backend, ["identify"], touches: ["b1"], onSensor: sensor)
        #expect(bob.json["user"] as? String == "bob", "\(bob.stdout)\(bob.stderr)")
        let list = try await run(backend, ["list"], touches: [], onSensor: [])
        #expect((list.json["damaged"] as? [String])?.first?.contains(path) == true, "\(list.stdout)")
        let status = try await run(backend, ["status"], touches: [], onSensor: [])
        #expect((status.json["damagedPrints"] as? [String])?.count == 1, "\(status.stdout)")
        #expect(try await run(backend, ["repair", "--yes"], touches: [], onSensor: []).status == 0)
        let after = try await run(backend, ["list"], touches: [], onSensor: [])
        #expect((after.json["damaged"] as? [String])?.isEmpty == true && (after.json["prints"] as? [Any])?.isEmpty == true)
    }
}
