import Foundation
import Testing
import TestSupport

/// The Device properties in step with the signals, in the order a client sees them, measured
/// against fprintd 1.94.2 and fpbridged alike on libfprint's `virtual_device`: `finger-needed`
/// is cleared before the final status, and `num-enroll-stages` is the reader's stage count,
/// claimed or not, following a reader whose count changes.
@Suite(.serialized) struct FprintdPropertyTests {
    /// The client's lines without the answers to calls: the signals and property changes.
    static func events(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("signal ") || $0.hasPrefix("changed ") }
    }

    /// Whether `first` comes before `second` in `lines` (both there).
    static func order(_ lines: [String], _ first: String, before second: String) -> Bool {
        guard let a = lines.firstIndex(of: first), let b = lines.firstIndex(of: second) else { return false }
        return a < b
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func fingerNeededIsClearedBeforeACompletedEnrollmentsFinalStatus(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let client = try bus.startClient(["call:Claim:root", "call:EnrollStart:right-index-finger", "done:EnrollStatus",
                                          "call:EnrollStop", "call:Release"])
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, Array(repeating: "SCAN p1", count: 5))
        #expect(try await client.finish() == 0, "\(client.output)")
        let lines = Self.events(client.output)
        #expect(FprintdFinalStatusTests.finals("EnrollStatus", client.output) == ["enroll-completed"], "\(client.output)")
        #expect(Self.order(lines, "changed finger-needed=False", before: "signal EnrollStatus enroll-completed True"), "\(lines)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], ["EnrollStop", "VerifyStop"])
    func fingerNeededIsClearedBeforeTheFinalStatusOfAStoppedAction(daemon: FprintdBus.Daemon, stop: String) async throws {
        let bus = try await FprintdBus(daemon)
        try #require(try await bus.enroll().status == 0)
        let (start, signal, final) = stop == "EnrollStop"
            ? ("call:EnrollStart:left-thumb", "EnrollStatus", "signal EnrollStatus enroll-failed True")
            : ("call:VerifyStart:any", "VerifyStatus", "signal VerifyStatus verify-no-match True")
        let result = try await bus.client(["call:Claim:root", start, "wait:changed:finger-needed", "call:\(stop)", "done:\(signal)",
                                           "call:Release"])
        let lines = Self.events(result.stdout)
        #expect(Self.order(lines, "changed finger-needed=False", before: final), "\(lines)")
    }

    /// fprintd tells a verification's result from the match callback, as the scan is read:
    /// before the operation ends and the finger is no longer needed.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], [("p1", "verify-match"), ("p2", "verify-no-match")])
    func aVerificationsResultComesBeforeFingerNeededIsCleared(daemon: FprintdBus.Daemon, scan: (print: String, result: String)) async throws {
        let bus = try await FprintdBus(daemon)
        try #require(try await bus.enroll().status == 0)
        let client = try bus.startClient(["call:Claim:root", "call:VerifyStart:any", "done:VerifyStatus", "call:VerifyStop", "call:Release"])
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, ["SCAN \(scan.print)"])
        #expect(try await client.finish() == 0, "\(client.output)")
        let lines = Self.events(client.output)
        #expect(Self.order(lines, "signal VerifyStatus \(scan.result) True", before: "changed finger-needed=False"), "\(lines)")
    }

    /// fprintd says the reader's count whether the device is claimed or not (its interface
    /// documents -1 while unclaimed; fprintd never says it), and a Claim or Release changes nothing.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func numEnrollStagesIsTheReadersClaimedOrNot(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let result = try await bus.client(["get:num-enroll-stages", "call:Claim:root", "get:num-enroll-stages", "call:Release",
                                           "get:num-enroll-stages"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == ["num-enroll-stages = 5", "Claim ok", "num-enroll-stages = 5", "Release ok", "num-enroll-stages = 5"],
                "\(result.stdout)")
    }

    /// A reader whose stage count changes while claimed (virtual_device's SET_ENROLL_STAGES):
    /// the property follows at once, with its change announced, and the enrollment takes that
    /// many scans.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func numEnrollStagesFollowsTheReader(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let client = try bus.startClient(["call:Claim:root", "wait:changed:num-enroll-stages", "get:num-enroll-stages",
                                          "call:EnrollStart:right-index-finger", "done:EnrollStatus", "call:EnrollStop", "call:Release"])
        #expect(try await client.waitFor("Claim ok"), "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, ["SET_ENROLL_STAGES 3"])
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, Array(repeating: "SCAN p1", count: 3))
        #expect(try await client.finish() == 0, "\(client.output)")
        let lines = client.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("changed num-enroll-stages=3") && lines.contains("num-enroll-stages = 3"), "\(lines)")
        let statuses = lines.filter { $0.hasPrefix("signal EnrollStatus") }
        #expect(statuses == ["signal EnrollStatus enroll-stage-passed False", "signal EnrollStatus enroll-stage-passed False",
                             "signal EnrollStatus enroll-completed True"], "\(lines)")
    }

    /// What each daemon says on an image reader (virtual_image), claimed and not. fprintd
    /// counts one stage more than the reader's on a reader that can identify, for its check
    /// that the finger is not enrolled already; fpbridged checks on the first scan, with no
    /// stage of its own (docs/desktop.md, where it differs from fprintd on purpose).
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func numEnrollStagesOnAnImageReader(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, driver: "virtual_image")
        let result = try await bus.client(["get:num-enroll-stages", "call:Claim:root", "get:num-enroll-stages", "call:Release"])
        let stages = result.stdout.split(separator: "\n").filter { $0.hasPrefix("num-enroll-stages") }
        let count = daemon == .fprintd ? 6 : 5
        #expect(stages == Array(repeating: "num-enroll-stages = \(count)", count: 2), "\(result.stdout)")
    }
}
