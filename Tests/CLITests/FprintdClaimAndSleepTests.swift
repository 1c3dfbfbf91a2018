import Foundation
import Testing
import TestSupport

/// Claims, sleep and calls that meet on fprintd's interface, measured against fprintd 1.94.2 and
/// fpbridged alike: a reader that cannot be opened fails the Claim, a Start while the machine
/// prepares to sleep is accepted and then fails, a client's deletions run in turn, and a
/// second Stop finds nothing to stop.
@Suite(.serialized) struct FprintdClaimAndSleepTests {
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func aClaimFailsWithInternalWhenTheReaderCannotBeOpened(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        // The reader listens while it is open, that is from the Claim; kept alive, it goes on
        // listening after the Release, and its next open fails with the error queued.
        let first = try bus.startClient(["call:Claim:root", "wait:Proceed", "call:Release"])
        #expect(try await first.waitFor("Claim ok"), "\(first.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, ["SET_KEEP_ALIVE 1"])
        try await bus.proceed()
        #expect(try await first.finish() == 0 && first.output.contains("Release ok"), "\(first.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, ["ERROR 5"])
        let second = try await bus.client(["call:Claim:root", "call:Release", "call:Claim:root", "call:Release"])
        let lines = second.stdout.split(separator: "\n").filter { !$0.hasPrefix("changed") }
        #expect(lines.first?.hasPrefix("Claim error net.reactivated.Fprint.Error.Internal: ") == true, "\(second.stdout)")
        #expect(lines.dropFirst().first == "Release error net.reactivated.Fprint.Error.ClaimDevice: Device was not claimed before use",
                "the failed claim left the device free: \(second.stdout)")
        #expect(Array(lines.suffix(2)) == ["Claim ok", "Release ok"], "the error was the one open's: \(second.stdout)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func anEnrollStartWhileTheMachinePreparesToSleepIsAcceptedAndFails(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let client = try bus.startClient(["call:Claim:root", "wait:Proceed", "call:EnrollStart:right-index-finger",
                                          "done:EnrollStatus", "call:EnrollStop", "call:ListEnrolledFingers:root", "call:Release"])
        #expect(try await client.waitFor("Claim ok"), "\(client.output)")
        try await bus.prepareForSleep(true)
        try await bus.waitUntilReadyForSleep()
        try await bus.proceed()
        #expect(try await client.finish() == 0, "a final status came: \(client.output)")
        try await bus.prepareForSleep(false)
        #expect(client.output.contains("EnrollStart ok"), "\(client.output)")
        #expect(FprintdFinalStatusTests.finals("EnrollStatus", client.output) == ["enroll-unknown-error"], "\(client.output)")
        #expect(client.output.contains("EnrollStop ok"), "\(client.output)")
        #expect(client.output.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"), "\(client.output)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func aClientsDeletionsSentTogetherRunInTurn(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        try #require(try await bus.enroll().status == 0)
        // Sent together: each is answered once the one before it has run, none is refused as busy.
        let result = try await bus.client(["call:Claim:root", "send:DeleteEnrolledFingers:root", "send:DeleteEnrolledFingers:root",
                                           "send:DeleteEnrolledFingers2", "call:DeleteEnrolledFingers:root", "call:Release"])
        let answers = result.stdout.split(separator: "\n").filter { $0.hasPrefix("DeleteEnrolledFingers") }
        #expect(answers.count == 4 && answers.filter { $0.hasSuffix(" ok") }.count == 1, "\(result.stdout)")
        #expect(answers.filter { $0.contains(" error net.reactivated.Fprint.Error.NoEnrolledPrints: No fingerprint enrolled") }.count == 3,
                "\(result.stdout)")
        #expect(result.stdout.contains("Release ok"), "\(result.stdout)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], ["VerifyStop", "EnrollStop"])
    func aSecondStopFindsNothingToStop(daemon: FprintdBus.Daemon, stop: String) async throws {
        let bus = try await FprintdBus(daemon)
        try #require(try await bus.enroll().status == 0)
        let start = stop == "VerifyStop" ? "call:VerifyStart:any" : "call:EnrollStart:left-thumb"
        let signal = stop == "VerifyStop" ? "VerifyStatus" : "EnrollStatus"
        let result = try await bus.client(["call:Claim:root", start, "wait:changed:finger-needed", "call:\(stop)", "done:\(signal)",
                                           "call:\(stop)", "call:Release"])
        let answers = result.stdout.split(separator: "\n").filter { $0.hasPrefix(stop + " ") }
        let nothing = stop == "VerifyStop" ? "No verification in progress" : "No enrollment in progress"
        #expect(answers == ["\(stop) ok", "\(stop) error net.reactivated.Fprint.Error.NoActionInProgress: \(nothing)"], "\(result.stdout)")
    }
}
