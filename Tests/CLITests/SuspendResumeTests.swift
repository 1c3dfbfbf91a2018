import Foundation
import Testing
import TestSupport

/// Suspend and resume under logind (python3-dbusmock on a private bus): an evaluation running
/// when the machine prepares to sleep ends with systemCancel (-4), the inhibitor is dropped so
/// that the machine may sleep, nothing starts while asleep, and after waking the next
/// evaluation works with the reader opened afresh.
@Suite(.serialized) struct SuspendResumeTests {
    @Test(arguments: [Backend.fakeThroughService, .virtualDeviceThroughService])
    func anEvaluationAtSleepEndsWithSystemCancelAndTheNextOneAfterWakingWorks(backend: Backend) async throws {
        let logind = try await LogindMock()
        let bench = try await Bench(backend, systemBus: logind.address)
        try await bench.setPasscode()
        try await bench.enroll()
        #expect(try await bench.service!.request("GET", "/v1/service").json["sleepWatch"] as? String == "logind")
        #expect(try await logind.inhibitors().contains("fpbridged"), "a delay inhibitor is held while awake")

        // The fake reader waits 30 s before its touch; virtual_device waits for one that never comes.
        async let running = bench.backend.isFake
            ? bench.run(["auth"], script: "wait 30000\nscan p1")
            : bench.run(["auth"])
        // Real time: the scan must be armed when sleep is announced, and the CLI shows that nowhere; announced sooner, the refusal is the other path the test also checks.
        try await Task.sleep(for: .milliseconds(800))
        let start = Date()
        try await logind.prepareForSleep(true)
        let ended = try await running
        #expect(ended.errorCode == -4 && ended.status == 1, "\(ended.stdout)")
        // -4 says the sleep ended it; the 8 s scan timeout would have given -2003.
        #expect(Date().timeIntervalSince(start) < 8, "ended by the sleep, before the scan timeout")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await !logind.inhibitors().contains("fpbridged"), "the inhibitor is dropped once readers are closed")
        // Refused before any reader is opened: virtual_device is not even listening.
        let asleep = try await bench.run(["auth"], touches: bench.backend.isFake ? [.finger("p1")] : [])
        #expect(asleep.errorCode == -4, "nothing starts while the machine sleeps: \(asleep.stdout)")
        #expect(try await bench.failures() == 0, "nothing was counted")

        try await logind.prepareForSleep(false)
        // fpbridged takes its new inhibitor when the resume signal reaches it: waited for, not slept.
        try await until("a new inhibitor is taken after waking") { try await logind.inhibitors().contains("fpbridged") }
        let awake = try await bench.run(["auth"], touches: [.finger("p1")])
        #expect(awake.status == 0, "\(awake.stdout)\(awake.stderr)")
    }

    /// logind slow to answer `Inhibit` holds up no reader: after waking, an evaluation on a
    /// libfprint reader runs to its end while the service's `Inhibit` call still waits, and the
    /// inhibitor given late is kept; one refused is said in the log with logind's reason. (The loop
    /// thread used to wait on the call for up to 5 s, then drop it without a word.)
    @Test func anEvaluationRunsWhileLogindHoldsItsAnswerToInhibit() async throws {
        let logind = try await LogindMock(inhibit: .whenTold)
        let bench = try await Bench(.virtualDeviceThroughService, systemBus: logind.address)
        try await until("the service asks for an inhibitor at start") { try await logind.waitingInhibits() == 1 }
        try await logind.answerInhibits()
        try await until("the start-up inhibitor is held") { try await logind.inhibitors().contains("fpbridged") }
        try await bench.setPasscode()
        try await bench.enroll()

        try await logind.prepareForSleep(true)
        try await until("the inhibitor is dropped for sleep") { try await !logind.inhibitors().contains("fpbridged") }
        try await logind.prepareForSleep(false)
        try await until("the service asks again after waking") { try await logind.waitingInhibits() == 1 }
        let awake = try await bench.run(["auth"], touches: [.finger("p1")])
        #expect(awake.status == 0, "\(awake.stdout)\(awake.stderr)")
        #expect(try await logind.waitingInhibits() == 1, "the evaluation ran while Inhibit was unanswered")
        try await logind.answerInhibits()
        try await until("the inhibitor answered late is kept") { try await logind.inhibitors().contains("fpbridged") }

        try await logind.prepareForSleep(true)
        try await until("dropped for the second sleep") { try await !logind.inhibitors().contains("fpbridged") }
        try await logind.prepareForSleep(false)
        try await until("asked for after the second waking") { try await logind.waitingInhibits() == 1 }
        try await logind.refuseInhibits()
        try await until("the refusal is logged with its reason") {
            let log = bench.service!.output
            return log.contains("did not give a sleep inhibitor") && log.contains("refused by the test")
        }
    }

    /// Polls `condition` until it holds; fails after 20 s (a deadline, not a measurement).
    private func until(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(20)
        while try await !condition() {
            guard Date() < deadline else { throw TimedOut(what: what) }
            // A poll (the deadline above guards a hang).
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private struct TimedOut: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting: \(what)" }
    }
}
