import Foundation
import Testing
import TestSupport

/// Issue 27: `passcode remove` through a real `fpbridged` on a match-on-chip reader
/// (libfprint's `virtual_device_storage`, whose sensor keeps the prints: `LIST` names them).
/// Removing the passcode removes the user's files, keys and passcode under the lock, then
/// the sensor's copies in a turn of the reader of its own.
@Suite(.serialized) struct PasscodeRemovalOnSensorTests {
    let socket = TemporaryDirectory.socketPath()

    /// fpbridged holding `virtual_device_storage` open between requests, so the sensor's
    /// memory (which lasts as long as the device is open in the service) is what `LIST` shows.
    func startService() async throws -> ServiceProcess {
        try await ServiceProcess(environment: ["FP_VIRTUAL_DEVICE_STORAGE": socket, "FP_DRIVERS_WHITELIST": "virtual_device_storage"],
                                 arguments: ["--reader", "libfprint:virtual_device_storage", "--reader-idle-seconds", "600"])
    }

    /// `fpbridge --json ARGS` through `service`, playing `touches` (finger ids) on the reader:
    /// each after the scan prompt (an enrollment prompts once for all five).
    func run(_ service: ServiceProcess, _ arguments: [String], input: String = "", touches: [String] = []) async throws -> CommandResult {
        let prompts = touches.isEmpty ? nil : PromptSignal(Bench.scanPrompt)
        // An enrollment's first scan is the duplicate check's identification: a scan sent while
        // that operation ends is taken by it and lost (CI lost one so: stage 5/6, then the 30 s
        // timeout), so the reader's five wait for the check's stage, as VirtualReaderHarness does.
        let checkStage = arguments.first == "enroll" && !touches.isEmpty ? PromptSignal("stage 1/") : nil
        let watch = prompts?.watcher(), watchCheck = checkStage?.watcher()
        let command = Task {
            defer { prompts?.finish(); checkStage?.finish() }
            return try await Fpbridge.run(["--json"] + arguments, environment: service.clientEnvironment, input: input,
                                          onStderr: { watch?($0); watchCheck?($0) })
        }
        let promptPerTouch = arguments.first != "enroll"
        for (index, touch) in touches.enumerated() {
            if let prompts, index == 0 || promptPerTouch {
                guard await prompts.next(within: 30) else { break }
            }
            if index == 1, let checkStage {
                // No stage: the check refused the finger and the command ended.
                guard await checkStage.next(within: 30) else { break }
            }
            try await VirtualReaderDriver.send(socket, ["SCAN \(touch)"])
        }
        return try await command.value
    }

    /// Six touches: the reader's five, after the identification that checks for a duplicate.
    func enroll(_ service: ServiceProcess, _ finger: String, id: String) async throws -> CommandResult {
        try await run(service, ["enroll", "--finger", finger, "--passcode-stdin"], input: "2468\n",
                      touches: Array(repeating: id, count: 6))
    }

    /// The ids the sensor holds (`LIST`).
    func onSensor() async throws -> [String] {
        let reply = try await VirtualReaderDriver.send(socket, ["LIST "]).first ?? ""
        return reply.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.sorted()
    }

    /// The print files in the service's state directory.
    func printFiles(_ service: ServiceProcess) -> [String] {
        let folder = service.stateDirectory + "/prints"
        let all = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
        return all.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The caller's passcode (2468) and right index (`s1` on the sensor).
    func setUp(_ service: ServiceProcess) async throws {
        let set = try await run(service, ["passcode", "set", "--passcode-stdin"], input: "2468\n")
        #expect(set.status == 0, "\(set.stdout)\(set.stderr)")
        let enrolled = try await enroll(service, "right-index", id: "s1")
        #expect(enrolled.status == 0 && enrolled.json["storedOnDevice"] as? Bool == true, "\(enrolled.stdout)\(enrolled.stderr)")
        #expect(try await onSensor() == ["s1"])
        #expect(printFiles(service).count == 1, "\(printFiles(service))")
    }

    @Test func removingThePasscodeDeletesTheSensorsCopyAndANewEnrollmentWorks() async throws {
        let service = try await startService()
        try await setUp(service)

        let removed = try await run(service, ["passcode", "remove", "--passcode-stdin"], input: "2468\n")
        #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
        #expect((removed.json["printsRemoved"] as? [Any])?.count == 1, "\(removed.stdout)")
        #expect(removed.json["leftOnSensor"] == nil, "\(removed.stdout)")
        #expect(try await onSensor() == [], "the sensor's copy is deleted")
        #expect(printFiles(service) == [], "the files are gone")
        #expect(try await run(service, ["list"]).json["prints"] as? [Any] != nil)
        #expect((try await run(service, ["list"]).json["prints"] as? [Any])?.isEmpty == true)
        let noPasscode = try await run(service, ["enroll", "--finger", "right-index", "--passcode-stdin"], input: "2468\n")
        #expect(noPasscode.errorCode == -5, "no passcode, no enrollment: \(noPasscode.stdout)")

        // The same finger again: a sensor still holding its copy would refuse it as a duplicate.
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        let again = try await enroll(service, "right-index", id: "s1")
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try await onSensor() == ["s1"])
        let verified = try await run(service, ["verify"], touches: ["s1"])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    /// When the sensor's delete fails, the removal still stands (files, keys and passcode are
    /// gone under the lock before the sensor is touched) and says what the sensor kept: a copy
    /// with no file, which matches nothing, neither by verify nor by identify.
    @Test func aFailedSensorDeleteLeavesACopyThatMatchesNothingAndSaysSo() async throws {
        let service = try await startService()
        try await setUp(service)

        // The next operation on the reader, the sensor's delete, fails (FP_DEVICE_ERROR_GENERAL).
        try await VirtualReaderDriver.send(socket, ["ERROR 0"])
        let removed = try await run(service, ["passcode", "remove", "--passcode-stdin"], input: "2468\n")
        #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
        #expect((removed.json["printsRemoved"] as? [Any])?.count == 1, "\(removed.stdout)")
        let left = removed.json["leftOnSensor"] as? [[String: Any]]
        #expect(left?.count == 1 && left?.first?["finger"] as? String == "right-index", "\(removed.stdout)")
        #expect(removed.stderr.contains("the sensor still holds right-index"), "\(removed.stderr)")
        #expect(try await onSensor() == ["s1"], "the delete failed: the copy is still there")
        #expect(printFiles(service) == [], "the files are gone all the same")
        let noPasscode = try await run(service, ["enroll", "--finger", "right-index", "--passcode-stdin"], input: "2468\n")
        #expect(noPasscode.errorCode == -5, "the passcode is gone all the same: \(noPasscode.stdout)")

        // The orphan matches nothing: another finger (s2) enrolled, then s1 is refused by both.
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        let other = try await enroll(service, "left-index", id: "s2")
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        #expect(try await onSensor() == ["s1", "s2"])
        let verify = try await run(service, ["verify"], touches: ["s1"])
        #expect(verify.status == 1 && verify.errorCode == -1, "\(verify.stdout)\(verify.stderr)")
        let identify = try await run(service, ["identify"], touches: ["s1"])
        #expect(identify.errorCode == -1 && identify.json["user"] == nil, "\(identify.stdout)\(identify.stderr)")
        #expect(try await run(service, ["verify"], touches: ["s2"]).status == 0)
    }
}
