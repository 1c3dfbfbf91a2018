import Foundation
import Testing
import TestSupport

/// `fpbridge --json` through `service`, for the caller's own user.
private func run(_ service: ServiceProcess, _ arguments: [String], input: String = "") async throws -> CommandResult {
    try await Fpbridge.run(["--json"] + arguments, environment: service.clientEnvironment, input: input)
}

/// The driver of the reader the service's status names, or nil when it sees none; waits up
/// to 10 s for `expected`.
private func reader(_ service: ServiceProcess, becomes expected: String?) async throws -> String? {
    var driver: String?
    for _ in 0..<100 {
        let reader = try await service.request("GET", "/v1/status").json["reader"] as? [String: Any]
        driver = (reader?["identity"] as? [String: Any])?["driver"] as? String
        if driver == expected { break }
        // A poll of the status (10 s at most).
        try await Task.sleep(for: .milliseconds(100))
    }
    return driver
}

/// Readers plugged in and pulled out while programs run, without a restart: the recorded Elan
/// reader (`../shared/replays/elan`) in an emulated `/sys` and `/dev` (umockdev), with libfprint's
/// real elan driver answering from the recording.
///
/// Without ../shared the suite is skipped, as the replay tests are; with it under CI, a
/// missing umockdev binding fails the suite instead of skipping it.
@Suite(.serialized, .enabled(if: SharedData.available && (USBTestbed.available || SharedData.isCI),
                             "needs ../shared/replays, umockdev and gir1.2-umockdev-1.0"))
struct HotPlugTests {
    @Test func aReaderPluggedInAfterTheServiceStartedIsUsedAndOnePulledOutIsGoneAtOnce() async throws {
        let testbed = try await USBTestbed()
        // Readers stay open a minute after each operation: only the unplug can make one go sooner.
        let service = try await ServiceProcess(environment: testbed.environment,
                                               arguments: ["--reader", "libfprint", "--reader-idle-seconds", "60", "--verbose"])
        #expect(try await reader(service, becomes: nil) == nil)
        let none = try await run(service, ["can-evaluate"])
        #expect(none.status == 3 && none.errorCode == -6, "no reader yet: \(none.stdout)")
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)

        try await testbed.plug("elan")
        #expect(try await reader(service, becomes: "elan") == "elan", "the service sees the reader plugged in")
        let enrolled = try await run(service, ["enroll", "--finger", "right-index", "--passcode-stdin"], input: "2468\n")
        #expect(enrolled.status == 0 && enrolled.json["driver"] as? String == "elan", "\(enrolled.stdout)\(enrolled.stderr)")
        let matched = try await run(service, ["auth"])
        #expect(matched.status == 0 && matched.json["finger"] as? String == "right-index", "\(matched.stdout)\(matched.stderr)")

        try await testbed.unplug("elan")
        #expect(try await reader(service, becomes: nil) == nil, "the reader kept open is closed when pulled out")
        let gone = try await run(service, ["auth"])
        #expect(gone.status == 3 && gone.errorCode == -6, "\(gone.stdout)")
        let status = try await service.request("GET", "/v1/status").json
        #expect((status["biometry"] as? [String: Any])?["failures"] as? Int == 0, "nothing was counted: \(status)")

        // Plugged in again it is a new device to libfprint; nothing stale is handed out.
        try await testbed.plug("elan")
        #expect(try await reader(service, becomes: "elan") == "elan")
        let again = try await run(service, ["auth"])
        #expect(again.status == 0 && again.json["finger"] as? String == "right-index", "\(again.stdout)\(again.stderr)")
        #expect(service.output.contains("reader plugged in: elan/0") && service.output.contains("reader pulled out: elan/0"))
    }

    @Test func watchingReadersReportsThePlugAndThePull() async throws {
        let testbed = try await USBTestbed()
        async let watched = Fpbridge.run(["--json", "--reader", "libfprint", "readers", "--watch", "--for", "6"],
                                         environment: testbed.environment)
        // Real time: the watcher must have enumerated before the plug (umockdev gives no event for it); the order it reports is what is checked.
        try await Task.sleep(for: .seconds(1.5))
        try await testbed.plug("elan")
        // Real time: the watcher must have seen the plug before the pull (as above).
        try await Task.sleep(for: .seconds(1.5))
        try await testbed.unplug("elan")
        let result = try await watched
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let seen = events.map { "\($0["event"] ?? "?") \((($0["reader"] as? [String: Any])?["driver"]) ?? "?")" }
        // Plugged before the watch began (a slow start) it is reported present; the pull is reported either way.
        #expect(result.status == 0 && (seen == ["added elan", "removed elan"] || seen == ["present elan", "removed elan"]),
                "\(result.stdout)\(result.stderr)")
    }
}

/// libfprint's virtual_device pulled out (its UNPLUG command) in the middle of a scan that
/// runs through fpbridged: needs nothing but libfprint.
@Suite(.serialized) struct ReaderPulledOutThroughTheServiceTests {
    @Test func aReaderPulledOutMidScanEndsTheOperationAndLeavesTheServiceServing() async throws {
        let socket = TemporaryDirectory.socketPath()
        let service = try await ServiceProcess(environment: ["FP_VIRTUAL_DEVICE": socket, "FP_DRIVERS_WHITELIST": "virtual_device"],
                                               arguments: ["--reader", "libfprint:virtual_device", "--reader-idle-seconds", "60"])
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        async let enrolled = run(service, ["enroll", "--finger", "right-index", "--passcode-stdin"], input: "2468\n")
        try await VirtualReaderDriver.waitForListener(socket)
        // As VirtualReaderHarness.started does: the listener answers while the reader's open
        // may still be reading the queue, and a scan it takes is lost to the enrollment (seen
        // once in CI: the enrollment waited its 30 s for a fifth scan).
        try await Task.sleep(for: .milliseconds(300))
        try await VirtualReaderDriver.send(socket, Array(repeating: "SCAN p1", count: 5))
        let enrollment = try await enrolled
        #expect(enrollment.status == 0, "\(enrollment.stdout)\(enrollment.stderr)")

        // The scan waits for a finger as long as it takes: time enough for a slow client to reach it.
        async let scanning = run(service, ["auth"])
        try await Task.sleep(for: .seconds(2))
        let pulled = Date()
        try await VirtualReaderDriver.send(socket, ["UNPLUG "])
        let ended = try await scanning
        #expect(ended.status == 3 && ended.errorCode == -13, "\(ended.stdout)\(ended.stderr)")
        #expect(Date().timeIntervalSince(pulled) < 2, "the pull ends the scan at once")
        #expect(try await reader(service, becomes: nil) == nil, "a reader pulled out is not offered again")
        let after = try await run(service, ["can-evaluate"])
        #expect(after.status == 3 && after.errorCode == -6, "\(after.stdout)")
        let status = try await service.request("GET", "/v1/status").json
        #expect((status["biometry"] as? [String: Any])?["failures"] as? Int == 0, "nothing was counted: \(status)")
    }
}

/// Issue 25 §5 and 27 §2: a request that lands as the idle reader closes (the service closes a
/// reader some time after its last operation) waits for the close and opens it again; it never
/// fails with "the reader is already open". Requests are sent around the idle deadline.
@Suite(.serialized) struct IdleCloseRaceTests {
    @Test func requestsLandingOnTheIdleDeadlineNeverSeeAReaderFailure() async throws {
        let socket = TemporaryDirectory.socketPath()
        let service = try await ServiceProcess(environment: ["FP_VIRTUAL_DEVICE": socket, "FP_DRIVERS_WHITELIST": "virtual_device"],
                                               arguments: ["--reader", "libfprint:virtual_device", "--reader-idle-seconds", "0.3", "--verbose"])
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        var failures: [String] = []
        var opened = 0
        for round in 0..<24 {
            // 0.2 to 0.43 s after the last request ended: before, at and after the idle deadline.
            try await Task.sleep(for: .milliseconds(200 + (round * 10) % 240))
            let answer = try await run(service, ["can-evaluate", "--policy", "biometrics"])
            if answer.errorCode == -2006 || answer.errorCode == -2002 { failures.append(answer.stdout) }
            if answer.errorCode == -7 { opened += 1 }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(opened == 24, "each request reached the reader (no print: biometryNotEnrolled)")
    }
}
