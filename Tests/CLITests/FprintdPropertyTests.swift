import Foundation
import Testing
import TestSupport

/// The Device properties in step with the signals, in the order a client sees them, measured
/// against fprintd 1.94.2 and fpbridged alike on libfprint's `virtual_device` and
/// `virtual_image`: `finger-needed` and `finger-present` follow the reader's finger-status
/// flags, each change in order with the statuses, and `num-enroll-stages` is the reader's stage
/// count, claimed or not, following a reader whose count changes.
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
        // The reader's flags: the finger is needed from the start to the end, and never said to
        // be present (virtual_device's scan sets and clears it in one go).
        #expect(Self.changes("finger-needed", client.output) == ["True", "False"], "\(lines)")
        #expect(Self.changes("finger-present", client.output) == [], "\(lines)")
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
        // Never said to be present: virtual_device's scan sets and clears the flag in one go.
        #expect(Self.changes("finger-needed", client.output) == ["True", "False"], "\(lines)")
        #expect(Self.changes("finger-present", client.output) == [], "\(lines)")
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

    /// One property's changes, in order, from a client's output ("True"/"False").
    static func changes(_ property: String, _ output: String) -> [String] {
        events(output).compactMap { line in
            line.hasPrefix("changed \(property)=") ? String(line.dropFirst("changed \(property)=".count)) : nil
        }
    }

    /// `finger-needed` and `finger-present` follow libfprint's finger-status flags during an
    /// enrollment on an image reader: the finger is no longer needed from each capture until
    /// the next stage asks for it again, and neither daemon says it is present (the image
    /// arrives with the finger's touch and lift in one go). fprintd takes one scan more
    /// (its duplicate check, docs/desktop.md), so it switches once more.
    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"), arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func fingerPropertiesFollowTheReaderDuringAnEnrollmentOnAnImageReader(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, driver: "virtual_image")
        let scans = daemon == .fprintd ? 6 : 5
        let client = try bus.startClient(["call:Claim:root", "call:EnrollStart:right-index-finger", "done:EnrollStatus",
                                          "call:EnrollStop", "call:Release"])
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        try await VirtualReaderDriver.sendImages(bus.readerSocket, Array(repeating: SharedData.print("whorl"), count: scans), lead: 0.5)
        #expect(try await client.finish() == 0, "\(client.output)")
        #expect(FprintdFinalStatusTests.finals("EnrollStatus", client.output) == ["enroll-completed"], "\(client.output)")
        let needed = ["True"] + Array(repeating: ["False", "True"], count: scans - 1).flatMap { $0 } + ["False"]
        #expect(Self.changes("finger-needed", client.output) == needed, "\(client.output)")
        #expect(Self.changes("finger-present", client.output) == [], "\(client.output)")
    }

    /// A finger held on an image reader through a verification: present and no longer needed
    /// at the capture, the match while the finger is still down, and not present only after
    /// that (at the lift, or when VerifyStop cancels the operation waiting for it).
    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"), arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func fingerPropertiesFollowAFingerHeldDuringAVerification(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, driver: "virtual_image")
        let whorl = SharedData.print("whorl")
        let enroll = try bus.startClient(["call:Claim:root", "call:EnrollStart:right-index-finger", "done:EnrollStatus",
                                          "call:EnrollStop", "call:Release"])
        #expect(try await enroll.waitFor("EnrollStart ok"))
        try await VirtualReaderDriver.sendImages(bus.readerSocket, Array(repeating: whorl, count: daemon == .fprintd ? 6 : 5), lead: 0.5)
        try #require(try await enroll.finish() == 0 && enroll.output.contains("enroll-completed True"), "\(enroll.output)")

        let verify = try bus.startClient(["call:Claim:root", "call:VerifyStart:any", "done:VerifyStatus", "call:VerifyStop", "call:Release"])
        #expect(try await verify.waitFor("changed finger-needed=True"), "\(verify.output)")
        let finger = try await VirtualReaderDriver.holdFinger(bus.readerSocket, image: whorl, lead: 0)
        #expect(try await verify.waitFor("signal VerifyStatus", timeout: 20), "\(verify.output)")
        try await finger.lift()
        #expect(try await verify.finish() == 0, "\(verify.output)")
        let lines = verify.output.split(separator: "\n").map(String.init)
        let properties = lines.filter { $0.hasPrefix("changed finger-") }
        let answer = try #require(lines.firstIndex { $0.hasPrefix("signal VerifyStatus") }, "\(lines)")
        #expect(lines[...answer].filter { $0.hasPrefix("changed finger-") || $0.hasPrefix("signal VerifyStatus") } ==
                ["changed finger-needed=True", "changed finger-present=True", "changed finger-needed=False",
                 "signal VerifyStatus verify-match True"], "\(lines)")
        // After the answer, finger-present is cleared at the lift or when the operation waiting
        // for it is cancelled after VerifyStop, whichever comes first (both daemons alike).
        #expect(properties == ["changed finger-needed=True", "changed finger-present=True", "changed finger-needed=False",
                               "changed finger-present=False"], "\(lines)")
    }
}
