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
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await logind.inhibitors().contains("fpbridged"), "a new inhibitor is taken after waking")
        let awake = try await bench.run(["auth"], touches: [.finger("p1")])
        #expect(awake.status == 0, "\(awake.stdout)\(awake.stderr)")
    }
}
