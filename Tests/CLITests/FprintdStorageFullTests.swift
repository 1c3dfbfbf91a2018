import Foundation
import Testing
import TestSupport

/// Issue 53: a sensor whose own storage is full (libfprint's `virtual_device_storage` told
/// DATA_FULL), measured against fprintd 1.94.2 and fpbridged alike. As fprintd does, the
/// enrollment gives up one of the sensor's prints that no record knows (an earlier
/// installation's), the most recently enrolled first and undated ones last, and starts again;
/// prints the records know are never touched, and with none left to give up the enrollment
/// ends `enroll-data-full`. fpbridged used to end every such enrollment at once, so a user who
/// re-installed met "storage full" for good.
@Suite(.serialized) struct FprintdStorageFullTests {
    static let driver = "virtual_device_storage"
    /// Prints nobody here knows, with the virtual reader's metadata in their names (enroll date
    /// and user), in the order they are given up.
    static let spare = ["FP1-20201217-7-12345678-testuser", "FP1-20201216-7-ABCDEFGH-testuser", "no-metadata-print"]
    /// root's own prints, enrolled here: one older than every spare one, one undated.
    static let known = ["FP1-20000101-7-ABCDEFGH-root": "left-index-finger", "no-metadata-new": "left-middle-finger"]

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func aFullSensorGivesUpThePrintsNobodyKnowsOneAtATime(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, driver: Self.driver)
        for (print, finger) in Self.known.sorted(by: { $0.key < $1.key }) {
            let enrolled = try await bus.enroll(finger, print: print, scans: 6)
            try #require(enrolled.stdout.contains("Enroll result: enroll-completed"), "\(print): \(enrolled.stdout)")
        }
        var steps = ["call:Claim:root", "wait:Proceed"]
        for _ in Self.spare { steps += ["call:EnrollStart:right-thumb", "wait:Proceed", "call:EnrollStop"] }
        // The last round waits for the test too: the client's done: would take an earlier round's final status.
        steps += ["call:EnrollStart:right-thumb", "wait:Proceed", "call:EnrollStop", "call:Release"]
        let client = try bus.startClient(steps)
        #expect(try await client.waitFor("Claim ok"), "\(client.output)")
        // Queued: the reader takes them at its next operation (the enrollment's check).
        _ = try await VirtualReaderDriver.send(bus.readerSocket, Self.spare.map { "INSERT \($0)" })
        try await bus.proceed()
        var left = Self.spare
        for round in 1...Self.spare.count {
            #expect(try await client.waitFor(count: round) { $0.components(separatedBy: "EnrollStart ok").count - 1 }, "\(client.output)")
            // The check's scan (a finger nobody enrolled), then the sensor says it is full.
            _ = try await VirtualReaderDriver.send(bus.readerSocket, ["SCAN some-other-print", "ERROR 8"])
            left.removeFirst()
            let expected = Set(left + Self.known.keys)
            #expect(try await Self.waitForSensor(bus, expected), "round \(round): \(client.output)")
            try await bus.proceed()
        }
        #expect(try await client.waitFor(count: Self.spare.count + 1) { $0.components(separatedBy: "EnrollStart ok").count - 1 },
                "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, ["SCAN some-other-print", "ERROR 8"])
        // Each round so far: the check's stage, then the final status of its EnrollStop.
        let finals = 2 * Self.spare.count + 2
        #expect(try await client.waitFor(count: finals) { $0.components(separatedBy: "signal EnrollStatus").count - 1 }, "\(client.output)")
        try await bus.proceed()
        #expect(try await client.finish() == 0, "\(client.output)")
        let statuses = client.output.split(separator: "\n").filter { $0.hasPrefix("signal EnrollStatus") }
        #expect(statuses.count == finals && statuses.last == "signal EnrollStatus enroll-data-full True",
                "nothing left to give up: \(client.output)")
        let listed = try await bus.client(["call:ListEnrolledFingers:root"])
        #expect(listed.stdout.contains("ListEnrolledFingers ok [left-index-finger,left-middle-finger]"), "\(listed.stdout)")
    }

    /// Polls the sensor's list (10 s at most) until it is `expected`: the upkeep runs inside
    /// the enrollment, and nothing on the bus marks its end.
    static func waitForSensor(_ bus: FprintdBus, _ expected: Set<String>) async throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Set(try await FprintdMatchOnChipEnrollTests.sensor(bus)) == expected { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
