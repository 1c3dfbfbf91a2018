import Foundation
import Testing
import TestSupport

/// The engine's rules, each one case run against both backends, one process per command.
@Suite(.serialized) struct BehaviourTests {
    @Test(arguments: Backend.allCases)
    func threeMissesEndAnAuthFiveLockAndOnlyThePasscodeUnlocks(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.setPasscode()
        try await bench.enroll()
        let three = try await bench.run(["auth"], touches: [.finger("x1"), .finger("x2"), .finger("x3")])
        #expect(three.errorCode == -1 && three.status == 1, "\(three.stdout)")
        #expect(try await bench.failures() == 3)
        let lock = try await bench.run(["auth"], touches: [.finger("x4"), .finger("x5")])
        #expect(lock.errorCode == -8, "\(lock.stdout)")
        // Locked: refused without a scan. Were it to scan, the fake reader would match and the
        // virtual one would wait out the timeout (-2003).
        let locked = try await bench.run(["auth", "--policy", "biometrics"],
                                         touches: backend.isFake ? [.finger("p1")] : [])
        #expect(locked.errorCode == -8, "\(locked.stdout)")
        let owner = try await bench.run(["auth", "--policy", "device-owner", "--passcode-stdin"], input: "2468\n")
        #expect(owner.status == 0 && owner.json["method"] as? String == "passcode", "\(owner.stdout)")
        #expect(try await bench.run(["auth"], touches: [.finger("p1")]).status == 0)
        #expect(try await bench.failures() == 0)
    }

    @Test(arguments: Backend.allCases)
    func retriesNeverCountAndASuccessResets(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.setPasscode()
        try await bench.enroll()
        let retried = try await bench.run(["auth"], touches: [.retry, .retry, .finger("x1"), .retry, .finger("x2"), .finger("x3")])
        #expect(retried.errorCode == -1, "\(retried.stdout)")
        #expect(try await bench.failures() == 3, "retries must not count")
        let success = try await bench.run(["auth"], touches: [.retry, .finger("p1")])
        #expect(success.status == 0, "\(success.stdout)")
        #expect(try await bench.failures() == 0, "a success resets the count")
    }

    @Test(arguments: Backend.allCases)
    func countsAreKeptPerUser(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.enroll(user: "alice")
        try await bench.enroll(id: "b1", user: "bob")
        #expect(try await bench.run(["verify"], user: "alice", touches: [.finger("b1")]).errorCode == -1)
        #expect(try await bench.failures("alice") == 1)
        #expect(try await bench.failures("bob") == 0)
        #expect(try await bench.run(["verify"], user: "bob", touches: [.finger("b1")]).status == 0)
        #expect(try await bench.failures("alice") == 1, "bob's success is not alice's")
    }

    /// Seed 001: passcode only / print only / neither, under both policies.
    @Test(arguments: Backend.allCases)
    func passcodeNotSetAndNotEnrolledAreToldApart(backend: Backend) async throws {
        func answers(_ bench: Bench) async throws -> (Int?, Int?) {
            let biometrics = try await bench.run(["can-evaluate", "--policy", "biometrics"])
            let owner = try await bench.run(["can-evaluate", "--policy", "device-owner"])
            return (biometrics.errorCode, owner.errorCode)
        }
        let neither = try await Bench(backend)
        #expect(try await answers(neither) == (-5, -5))
        let passcodeOnly = try await Bench(backend)
        try await passcodeOnly.setPasscode()
        #expect(try await answers(passcodeOnly) == (-7, nil))
        let both = try await Bench(backend)
        try await both.setPasscode()
        try await both.enroll()
        #expect(try await answers(both) == (nil, nil))
        // Prints with no passcode cannot be made any more (enrolling needs one); state from
        // before that rule can still exist, so it is planted here.
        let printOnly = try await Bench(backend)
        try FileManager.default.copyItem(atPath: both.state + "/prints", toPath: printOnly.state + "/prints")
        #expect(try await answers(printOnly) == (-5, -5))
    }

    @Test(arguments: Backend.allCases)
    func aDamagedCounterReadsAsLockedOutNeverAsZero(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.setPasscode()
        try await bench.enroll()
        #expect(try await bench.run(["verify"], touches: [.finger("x1")]).errorCode == -1)
        let counters = bench.state + "/counters"
        // The user's counter (enrolling also puts the reader's in place).
        let files = try FileManager.default.subpathsOfDirectory(atPath: counters).filter { $0.hasPrefix("user-") && $0.hasSuffix(".json") }
        let path = counters + "/" + (try #require(files.first))
        try Data("{\"biometricFail".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try await bench.run(["auth", "--policy", "biometrics"], touches: backend.isFake ? [.finger("p1")] : [])
        #expect(refused.errorCode == -8, "\(refused.stdout)")
        let lockout = refused.json["error"] as? [String: Any]
        #expect(lockout?["cause"] as? String == "damaged-state" && (lockout?["hint"] as? String)?.hasPrefix("'fpbridge repair' lists") == true,
                "the damage is named for programs and the repair suggested: \(refused.stdout)")
        #expect(String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) == "{\"biometricFail",
                "the damaged file is left for inspection")
        let status = try await bench.run(["status"])
        let biometry = status.json["biometry"] as? [String: Any]
        #expect(biometry?["counterDamaged"] as? Bool == true && biometry?["lockedOut"] as? Bool == true)
        #expect(biometry?["failures"] is NSNull && biometry?["attemptsLeftBeforeLockout"] as? Int == 0, "status tells the truth")
        #expect((status.json["passcode"] as? [String: Any])?["refused"] as? Bool == true)
        // Damage fails closed on the passcode path too: no guesses against a counter that cannot count.
        for _ in 0..<8 {
            let unlock = try await bench.run(["unlock", "--passcode-stdin"], input: "1111\n")
            #expect(unlock.errorCode == -2005 && unlock.status == 3 && unlock.errorMessage.contains(path), "\(unlock.stdout)")
        }
        let right = try await bench.run(["unlock", "--passcode-stdin"], input: "2468\n")
        #expect(right.errorCode == -2005, "\(right.stdout)")
        // The administrator's way out: a command, not hand-editing.
        let listed = try await bench.run(["repair"])
        #expect(listed.status == 3 && listed.stdout.contains(path), "\(listed.stdout)")
        let repaired = try await bench.run(["repair", "--yes"])
        #expect(repaired.status == 0, "\(repaired.stdout)")
        #expect(try await bench.run(["auth", "--policy", "biometrics"], touches: backend.isFake ? [.finger("p1")] : []).errorCode == -8,
                "a repaired counter starts locked out")
        let unlock = try await bench.run(["unlock", "--passcode-stdin"], input: "2468\n")
        #expect(unlock.status == 0, "\(unlock.stdout)")
        #expect(try await bench.run(["verify"], touches: [.finger("p1")]).status == 0)
    }

    @Test(arguments: Backend.allCases)
    func twoProcessesFailingAtOnceLoseNoCount(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.enroll()
        let results: [CommandResult]
        if backend == .virtualDeviceThroughService {
            // Two clients of one service, which serves them one after the other on its one reader
            // and prompts only the client it scans for. Each touch comes once a client shows the
            // prompt: virtual_device drops a scan queued while the reader is being opened or closed.
            let prompts = PromptSignal(Bench.scanPrompt)
            results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
                group.addTask { try await bench.run(["verify"], onStderr: prompts.watcher()) }
                group.addTask { try await bench.run(["verify"], onStderr: prompts.watcher()) }
                var answers: [CommandResult] = []
                for touch in ["x1", "x2"] {
                    let prompted = await prompts.next(within: 20)
                    #expect(prompted, "no client asked for touch \(touch) within 20 s: \(bench.service?.output ?? "")")
                    try await VirtualReaderDriver.send(bench.socket, ["SCAN \(touch)"])
                    if let answer = try await group.next() { answers.append(answer) }
                }
                return answers
            }
        } else {
            // Two readers of the same kind, one process each, failing at the same moment.
            let other = TemporaryDirectory.socketPath()
            async let first = bench.run(["verify"], touches: [.finger("x1")])
            async let second = bench.run(["verify"], touches: [.finger("x2")], socket: other)
            results = try await [first, second]
        }
        #expect(results.allSatisfy { $0.errorCode == -1 }, "\(results.map(\.stdout)) \(bench.service?.output ?? "")")
        #expect(try await bench.failures() == 2)
    }

    @Test(arguments: Backend.allCases)
    func sixWrongPasscodesLockWithRetryAfterAcrossProcesses(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.setPasscode()
        try await bench.enroll()
        for attempt in 1...5 {
            let wrong = try await bench.run(["unlock", "--passcode-stdin"], input: "1111\n")
            #expect(wrong.errorCode == -1, "attempt \(attempt): \(wrong.stdout)")
        }
        let sixth = try await bench.run(["unlock", "--passcode-stdin"], input: "1111\n")
        #expect(sixth.errorCode == -2004 && ((sixth.json["error"] as? [String: Any])?["retryAfter"] as? Double ?? 0) > 0)
        let right = try await bench.run(["unlock", "--passcode-stdin"], input: "2468\n")
        #expect(right.errorCode == -2004, "even the right passcode waits: \(right.stdout)")
        let status = try await bench.run(["status"])
        #expect((status.json["passcode"] as? [String: Any])?["lockedOut"] as? Bool == true)
    }
}
