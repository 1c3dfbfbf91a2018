import Foundation
import Testing
import TestSupport

/// Issue 53: enrolling on a match-on-chip reader (libfprint's `virtual_device_storage`, which
/// identifies on the chip and keeps its prints), measured against fprintd 1.94.2 and fpbridged
/// alike. fprintd begins each enrollment with an identification among the reader's prints,
/// counted as one more stage (`num-enroll-stages` 6 where the reader takes 5): a finger
/// enrolled already, by the same user or another, is `enroll-duplicate` at that first scan,
/// and a print the sensor holds that no record knows is deleted and the enrollment goes on.
/// Before, fpbridged left this to the sensor: the same finger enrolled for two users, and a
/// client waiting for fprintd's stage count waited for ever.
@Suite(.serialized) struct FprintdMatchOnChipEnrollTests {
    static let driver = "virtual_device_storage"

    /// The client's EnrollStatus signals, in order.
    static func statuses(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("signal EnrollStatus") }
    }

    /// The sensor's own prints (the reader's `LIST`, answered only while the reader is open:
    /// both daemons close it at `Release`, so a test asks before its client releases).
    static func sensor(_ bus: FprintdBus) async throws -> [String] {
        try await VirtualReaderDriver.send(bus.readerSocket, ["LIST"]).joined(separator: "\n")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.sorted()
    }

    /// Puts a print no record knows on the sensor ("old", as an earlier installation leaves it),
    /// starts root's enrollment and scans that finger once, for the check. The client then
    /// lists root's fingers and waits for ``FprintdBus/proceed()`` before it releases.
    static func enrollOverAnOrphan(_ bus: FprintdBus) async throws -> RunningClient {
        let client = try bus.startClient(["call:Claim:root", "wait:Proceed", "call:EnrollStart:right-index-finger", "done:EnrollStatus",
                                          "call:EnrollStop", "call:ListEnrolledFingers:root", "wait:Proceed", "call:Release"])
        #expect(try await client.waitFor("Claim ok"), "\(client.output)")
        // The reader keeps the INSERT until its next operation (the check's identification).
        _ = try await VirtualReaderDriver.send(bus.readerSocket, ["INSERT old"])
        try await bus.proceed()
        #expect(try await client.waitFor("EnrollStart ok"), "\(client.output)")
        try await bus.scan("old")
        return client
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func theStageCountHasOneMoreForTheDuplicateCheck(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, driver: Self.driver)
        let result = try await bus.client(["get:num-enroll-stages", "call:Claim:root", "get:num-enroll-stages", "call:Release"])
        let stages = result.stdout.split(separator: "\n").filter { $0.hasPrefix("num-enroll-stages") }
        #expect(stages == Array(repeating: "num-enroll-stages = 6", count: 2), "\(result.stdout)")
    }

    /// Six scans, six statuses: the check's stage, four of the reader's, then the completion
    /// (fprintd-enroll's own output, as a user sees it).
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func anEnrollmentTakesTheChecksScanAndTheReadersFive(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, driver: Self.driver)
        let client = try bus.startClient(["call:Claim:root", "call:EnrollStart:right-index-finger", "done:EnrollStatus",
                                          "call:EnrollStop", "call:ListEnrolledFingers:root", "wait:Proceed", "call:Release"])
        #expect(try await client.waitFor("EnrollStart ok"), "\(client.output)")
        for scan in 1...6 {
            try await bus.scan("p1")
            // The next scan is sent once this one's status is out (the check and the enrollment are two operations).
            #expect(try await client.waitFor(count: scan) { $0.components(separatedBy: "signal EnrollStatus").count - 1 }, "\(client.output)")
        }
        #expect(try await client.waitFor("ListEnrolledFingers ok [right-index-finger]"), "\(client.output)")
        #expect(try await Self.sensor(bus) == ["p1"])
        try await bus.proceed()
        #expect(try await client.finish() == 0, "\(client.output)")
        #expect(Self.statuses(client.output) == Array(repeating: "signal EnrollStatus enroll-stage-passed False", count: 5)
                + ["signal EnrollStatus enroll-completed True"], "\(client.output)")
    }

    /// The finger root enrolled is refused for root's other finger and for another user, at the
    /// check's one scan, with nothing saved and nothing added to the sensor.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func aFingerEnrolledAlreadyIsADuplicateAtTheFirstScan(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, driver: Self.driver)
        let first = try await bus.enroll(print: "p1", scans: 6)
        try #require(first.stdout.contains("Enroll result: enroll-completed"), "\(first.stdout)")
        for (user, finger) in [("root", "left-index-finger"), ("nobody", "right-index-finger")] {
            let client = try bus.startClient(["call:Claim:\(user)", "call:EnrollStart:\(finger)", "done:EnrollStatus",
                                              "call:EnrollStop", "call:ListEnrolledFingers:\(user)", "wait:Proceed", "call:Release"])
            #expect(try await client.waitFor("EnrollStart ok"), "\(client.output)")
            try await bus.scan("p1")
            #expect(try await client.waitFor("ListEnrolledFingers"), "\(user): \(client.output)")
            #expect(try await Self.sensor(bus) == ["p1"], "\(user): nothing added to the sensor")
            try await bus.proceed()
            #expect(try await client.finish() == 0, "\(user): \(client.output)")
            #expect(Self.statuses(client.output) == ["signal EnrollStatus enroll-duplicate True"], "\(user): \(client.output)")
            #expect(client.output.contains(user == "root" ? "ListEnrolledFingers ok [right-index-finger]"
                                                          : "ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"),
                    "\(user): \(client.output)")
        }
    }

    /// A print on the sensor that no record knows (an earlier installation's): the check finds
    /// it, deletes it from the sensor, and the enrollment of that finger goes on and completes
    /// (the sensor would otherwise refuse the finger as a duplicate of its own print).
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func aSensorPrintNoRecordKnowsGivesWay(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, driver: Self.driver)
        let client = try await Self.enrollOverAnOrphan(bus)
        // The deletion comes between the check and the enrollment, and a scan the reader gets
        // during it is refused and lost: the rest wait for the check's stage.
        #expect(try await client.waitFor("signal EnrollStatus enroll-stage-passed"), "\(client.output)")
        for scan in 2...6 {
            try await bus.scan("old")
            #expect(try await client.waitFor(count: scan) { $0.components(separatedBy: "signal EnrollStatus").count - 1 }, "\(client.output)")
        }
        #expect(try await client.waitFor("ListEnrolledFingers ok [right-index-finger]"), "\(client.output)")
        #expect(try await Self.sensor(bus) == ["old"], "the sensor holds the finger once, now root's")
        try await bus.proceed()
        #expect(try await client.finish() == 0, "\(client.output)")
        #expect(Self.statuses(client.output) == Array(repeating: "signal EnrollStatus enroll-stage-passed False", count: 5)
                + ["signal EnrollStatus enroll-completed True"], "\(client.output)")
    }

    /// fpbridged alone: the same sensor print, while one of the reader's print files is damaged
    /// (it may be that print's record), is kept and the finger refused, as a duplicate, rather
    /// than deleted on a guess.
    @Test func aSensorPrintIsKeptWhileAPrintFileOfTheReaderIsDamaged() async throws {
        let bus = try await FprintdBus(.fpbridged, driver: Self.driver)
        let directory = bus.service!.stateDirectory + "/prints/alice/\(Self.driver)/0"
        for path in ["/prints", "/prints/alice", "/prints/alice/\(Self.driver)", "/prints/alice/\(Self.driver)/0"] {
            let folder = bus.service!.stateDirectory + path
            if !FileManager.default.fileExists(atPath: folder) {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                                        attributes: [.posixPermissions: 0o700])
            }
        }
        #expect(FileManager.default.createFile(atPath: directory + "/left-thumb.json", contents: Data("{ not a print".utf8),
                                               attributes: [.posixPermissions: 0o600]))
        let client = try await Self.enrollOverAnOrphan(bus)
        #expect(try await client.waitFor("ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"), "\(client.output)")
        #expect(try await Self.sensor(bus) == ["old"], "the orphan is kept")
        try await bus.proceed()
        #expect(try await client.finish() == 0, "\(client.output)")
        #expect(Self.statuses(client.output) == ["signal EnrollStatus enroll-duplicate True"], "\(client.output)")
    }
}
