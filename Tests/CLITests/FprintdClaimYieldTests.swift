import Foundation
import Testing
import TestSupport

/// Issue 49 §3 on the bus: a Claim never released kept every other user's desktop client at
/// `AlreadyInUse` without limit, as fprintd does. fpbridged's idle claim gives way to another
/// user's Claim after `--claim-yield-seconds` (30 by default; 2 here, so that the test waits
/// 2 s, not 30: the bound is on the service's own clock, which a test of the real daemon
/// cannot move). An action that runs never yields; the holder's own user never takes it.
@Suite(.serialized) struct FprintdClaimYieldTests {
    static let bound: TimeInterval = 2
    static let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    func lines(_ result: CommandResult) -> [Substring] {
        result.stdout.split(separator: "\n").filter { !$0.hasPrefix("changed") && !$0.hasPrefix("signal") }
    }

    @Test func anIdleClaimYieldsToAnotherUsersClaimAndNeverWhileAnActionRuns() async throws {
        let bus = try await FprintdBus(serviceArguments: ["--claim-yield-seconds", String(Int(Self.bound))])
        try #require(try await bus.enroll().status == 0)
        // root claims and verifies; the finger does not come.
        let holder = try bus.startClient(["call:Claim:root", "call:VerifyStart:any", "wait:Proceed", "call:VerifyStop", "wait:Proceed",
                                          "call:VerifyStart:any", "call:Release"])
        #expect(try await holder.waitFor("VerifyStart ok"), "\(holder.output)")
        // Real time: the claim must be older than the bound while its verify runs (30 s scan timeout).
        try await Task.sleep(for: .seconds(Self.bound + 0.5))
        let whileRunning = try await bus.client(["call:Claim:", "call:Release"], launcher: Self.nobody)
        #expect(lines(whileRunning).first == "Claim error net.reactivated.Fprint.Error.AlreadyInUse: Device was already claimed",
                "a claim with a verify running yielded: \(whileRunning.stdout)")
        // The holder stops its verify: from now the claim is idle. Another user gets it once the
        // bound has passed, and not before.
        let stopped = Date()
        try await bus.proceed()
        #expect(try await holder.waitFor("VerifyStop ok"), "\(holder.output)")
        let claimed = try await eventually(within: 20, every: .milliseconds(200)) {
            let attempt = try await bus.client(["call:Claim:", "call:Release"], launcher: Self.nobody)
            if lines(attempt) == ["Claim ok", "Release ok"] { return true }
            #expect(lines(attempt).first == "Claim error net.reactivated.Fprint.Error.AlreadyInUse: Device was already claimed",
                    "\(attempt.stdout)")
            return false
        }
        try #require(claimed, "the idle claim never yielded to another user's")
        #expect(Date().timeIntervalSince(stopped) >= Self.bound, "yielded before the bound")
        // The old holder is told what happened at its next call, and holds nothing.
        try await bus.proceed()
        #expect(try await holder.finish() == 0, "\(holder.output)")
        let told = holder.output.split(separator: "\n").filter { $0.hasPrefix("VerifyStart error") || $0.hasPrefix("Release error") }
        #expect(told == ["VerifyStart error net.reactivated.Fprint.Error.ClaimDevice: Device was released: the claim went 2 seconds "
                         + "without an operation and another user's request came; claim it again",
                         "Release error net.reactivated.Fprint.Error.ClaimDevice: Device was released: the claim went 2 seconds "
                         + "without an operation and another user's request came; claim it again"],
                "\(holder.output)")
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "nothing was counted")
        // The reader works for the next client.
        let next = try await bus.withScans(["/usr/bin/fprintd-verify", "root"], after: "Verify started", scans: ["p1"])
        #expect(next.status == 0 && next.stdout.contains("verify-match"), "\(next.stdout)")
    }

    @Test func anIdleClaimNeverYieldsToTheHoldersOwnUser() async throws {
        let bus = try await FprintdBus(serviceArguments: ["--claim-yield-seconds", String(Int(Self.bound))])
        let holder = try bus.startClient(["call:Claim:root", "wait:Proceed", "call:Release"])
        #expect(try await holder.waitFor("Claim ok"), "\(holder.output)")
        // Real time: the claim must be idle for longer than the bound.
        try await Task.sleep(for: .seconds(Self.bound + 0.5))
        let same = try await bus.client(["call:Claim:root", "call:Release"])
        #expect(lines(same).first == "Claim error net.reactivated.Fprint.Error.AlreadyInUse: Device was already claimed", "\(same.stdout)")
        try await bus.proceed()
        #expect(try await holder.finish() == 0 && holder.output.contains("Release ok"), "\(holder.output)")
    }
}
