import Foundation
import Testing
import TestSupport

/// How an action on fprintd's interface ends when the client or the machine ends it, measured
/// against fprintd 1.94.2 and fpbridged alike: every VerifyStart and EnrollStart that was
/// answered gets exactly one final status (`done` true), and an enrollment that did not save
/// its print never says `enroll-completed` (a client such as GNOME Settings would tell its user
/// the finger is enrolled).
@Suite(.serialized) struct FprintdFinalStatusTests {
    /// The final statuses of `signal` in a client's output (`signal EnrollStatus NAME True`).
    static func finals(_ signal: String, _ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "signal", words[1] == signal, words[3] == "True" else { return nil }
            return String(words[2])
        }
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], ["Release", "EnrollStop"])
    func anEnrollmentEndedByTheClientFailsAndSavesNothing(daemon: FprintdBus.Daemon, ending: String) async throws {
        let bus = try await FprintdBus(daemon)
        var steps = ["call:Claim:root", "call:EnrollStart:right-index-finger", "wait:changed:finger-needed", "call:\(ending)",
                     "done:EnrollStatus", "call:ListEnrolledFingers:root"]
        if ending == "EnrollStop" { steps.append("call:Release") }
        let result = try await bus.client(steps)
        #expect(result.status == 0, "a final status came: \(result.stdout)")
        #expect(Self.finals("EnrollStatus", result.stdout) == ["enroll-failed"], "\(result.stdout)")
        #expect(result.stdout.contains("\(ending) ok"), "\(result.stdout)")
        #expect(result.stdout.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"),
                "nothing was saved: \(result.stdout)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func anEnrollmentAtSleepEndsWithUnknownErrorAndSavesNothing(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let client = try bus.startClient(["call:Claim:root", "call:EnrollStart:right-index-finger", "wait:changed:finger-needed",
                                          "done:EnrollStatus", "call:ListEnrolledFingers:root", "call:Release"])
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        try await bus.prepareForSleep(true)
        #expect(try await client.finish() == 0, "a final status came: \(client.output)")
        try await bus.prepareForSleep(false)
        #expect(Self.finals("EnrollStatus", client.output) == ["enroll-unknown-error"], "\(client.output)")
        #expect(client.output.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"),
                "nothing was saved: \(client.output)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], ["Release", "VerifyStop"])
    func aVerificationEndedByTheClientEndsAsNoMatchAndCountsNothing(daemon: FprintdBus.Daemon, ending: String) async throws {
        let bus = try await FprintdBus(daemon)
        let enrolled = try await bus.enroll()
        try #require(enrolled.status == 0 && enrolled.stdout.contains("enroll-completed"), "\(enrolled.stdout)")
        var steps = ["call:Claim:root", "call:VerifyStart:any", "wait:changed:finger-needed", "call:\(ending)", "done:VerifyStatus"]
        if ending == "VerifyStop" { steps.append("call:Release") }
        let result = try await bus.client(steps)
        #expect(result.status == 0, "a final status came: \(result.stdout)")
        #expect(Self.finals("VerifyStatus", result.stdout) == ["verify-no-match"], "\(result.stdout)")
        #expect(result.stdout.contains("Release ok"), "\(result.stdout)")
        if daemon == .fpbridged {
            #expect(try await bus.lockout("root")["failures"] as? Int == 0, "a scan the client ended is no failure")
        }
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func aStopOrReleaseRightAfterTheStartStillGivesOneFinalStatus(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let enrolled = try await bus.enroll()
        try #require(enrolled.status == 0, "\(enrolled.stdout)")
        for round in 1...3 {
            let result = try await bus.client([
                "call:Claim:root", "call:VerifyStart:any", "call:Release", "done:VerifyStatus",
                "call:Claim:root", "call:VerifyStart:any", "call:VerifyStop", "done:VerifyStatus", "call:Release",
                "call:Claim:root", "call:EnrollStart:left-thumb", "call:EnrollStop", "done:EnrollStatus", "call:Release",
            ])
            #expect(result.status == 0, "round \(round): a final status came each time: \(result.stdout)")
            #expect(Self.finals("VerifyStatus", result.stdout) == ["verify-no-match", "verify-no-match"], "round \(round): \(result.stdout)")
            #expect(Self.finals("EnrollStatus", result.stdout) == ["enroll-failed"], "round \(round): \(result.stdout)")
        }
        if daemon == .fpbridged { #expect(try await bus.lockout("root")["failures"] as? Int == 0, "nothing was counted") }
    }
}
