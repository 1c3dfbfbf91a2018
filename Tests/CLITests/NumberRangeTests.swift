import Foundation
import Testing
import TestSupport

/// Every number read from the command line or a file is range-checked: a clear error,
/// never a trap (SIGILL) or a hang. These used to trap.
@Suite struct NumberRangeTests {
    let directory = TemporaryDirectory()

    func run(_ arguments: [String], input: String = "") async throws -> CommandResult {
        try await Fpbridge.run(["--json", "--reader", "fake", "--state-dir", directory.file("state"), "--user", "alice"] + arguments,
                               input: input, timeout: 30)
    }

    @Test(arguments: [["auth", "--timeout", "inf"], ["auth", "--timeout", "1e300"], ["auth", "--timeout", "nan"],
                      ["auth", "--timeout", "-1"], ["readers", "--watch", "--for", "inf"], ["readers", "--watch", "--for", "1e300"],
                      ["verify", "--attempts", "99999999999999999999"], ["identify", "--attempts", "-5"]])
    func outOfRangeOptionsAreUsageErrors(arguments: [String]) async throws {
        let result = try await run(arguments)
        #expect(result.status == 2, "\(arguments): status \(result.status) \(result.stderr)")
    }

    @Test(arguments: [#"{"passcodeLockoutSeconds": [1e300]}"#, #"{"scanTimeoutSeconds": 1e300}"#,
                      #"{"passcodeHashRounds": 1073741824}"#, #"{"biometricLockoutThreshold": -3}"#,
                      #"{"maxFailedMatchesPerEvaluation": 9223372036854775807}"#, #"{"identificationLockoutSeconds": [-1]}"#,
                      #"{"scanTimeoutSeconds": "soon"}"#])
    func outOfRangeConfigIsAClearError(config: String) async throws {
        let state = try directory.privateDirectory("state")
        try Data(config.utf8).write(to: URL(fileURLWithPath: state + "/config.json"))
        let result = try await run(["status"])
        #expect(result.status == 2 || result.status == 3, "\(config): status \(result.status) \(result.stderr)")
        #expect(result.errorMessage.contains("config.json"), "\(result.stdout)")
    }

    /// A config.json that cannot be used stops every command, with its path; `repair` moves it aside.
    @Test func aDamagedConfigIsRepairedToTheDefaults() async throws {
        let state = try directory.privateDirectory("state")
        try Data(#"{"scanTimeoutSeconds": 1e300"#.utf8).write(to: URL(fileURLWithPath: state + "/config.json"))
        let refused = try await run(["status"])
        #expect(refused.status == 3 && refused.errorMessage.contains("config.json"), "\(refused.stdout)")
        let listed = try await run(["repair"])
        #expect(listed.status == 3 && listed.stdout.contains("config.json"), "\(listed.stdout)")
        #expect(try await run(["repair", "--yes"]).status == 0)
        #expect(try await run(["status"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: state + "/config.json"))
    }

    @Test(arguments: [("rounds", "1073741824"), ("rounds", "3000"), ("blockSize", "100000"), ("parallelism", "-1"),
                      ("rounds", "9223372036854775807")])
    func absurdScryptParametersAreDamageBeforeAnyHashing(field: String, value: String) async throws {
        #expect(try await run(["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        let path = directory.file("state/passcodes/alice.json")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let damaged = text.replacingOccurrences(of: #""\#(field)" : [0-9]+"#, with: "\"\(field)\" : \(value)", options: .regularExpression)
        #expect(damaged != text)
        try damaged.write(toFile: path, atomically: true, encoding: .utf8)
        let start = Date()
        let result = try await run(["unlock", "--passcode-stdin"], input: "2468\n")
        #expect(result.status == 3 && result.errorCode == -2005 && result.errorMessage.contains(path), "\(result.stdout)\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 20)
    }

    @Test(arguments: ["-1", "-1000000", "9223372036854775807"])
    func outOfRangeCountsAreDamageNotExtraAttempts(value: String) async throws {
        #expect(try await run(["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        try directory.privateDirectory("state/counters")
        try Data(#"{"biometricFailures": \#(value), "biometryLockedOut": false, "passcodeFailures": 0}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.file("state/counters/user-alice.json")))
        let status = try await run(["status"])
        let biometry = status.json["biometry"] as? [String: Any]
        #expect(biometry?["counterDamaged"] as? Bool == true && biometry?["lockedOut"] as? Bool == true, "\(status.stdout)")
    }
}
