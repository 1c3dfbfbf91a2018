@testable import FPAuthentication
import FPReaders
import Testing

/// A reader near or past libfprint's thermal cut-off (issue 25, "The thermal state as
/// numbers"): the fake reader reports the heat its script sets, as the service's estimate of
/// a libfprint reader does.
@Suite struct HotReaderTests {
    @Test func aHotReaderMakesBiometricsUnavailableButNotTheDeviceOwnerPolicy() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        let hot = try await harness.context("set heat 0.75\nscan alice-1")
        let biometrics = await hot.canEvaluate(.biometrics)
        #expect(biometrics.error?.code == .readerTooHot, "\(String(describing: biometrics.error))")
        // The rest it still needs, counting down from the heat, not a constant.
        let wait = try #require(biometrics.error?.retryAfter)
        #expect(abs(wait - 219) < 2, "540 s × ln(0.75 / 0.5), not 210: \(wait)")
        #expect(await hot.canEvaluate(.deviceOwner).available)
        #expect(await (try harness.context("set heat 0.70")).canEvaluate(.biometrics).available, "warm, not hot")
        // Evaluated anyway: biometrics fails with the wait; device owner goes to the passcode
        // without a scan, and nothing is counted.
        #expect(try await harness.evaluate(.biometrics, "set heat 0.75\nscan alice-1") == .readerTooHot)
        #expect(try await harness.evaluate(.deviceOwner, "set heat 0.75\nscan alice-1", passcodes: ["2468"]) == nil)
        #expect(harness.counter().biometricFailures == 0)
    }

    @Test func aScanNearTheCutOffSaysSoBeforeItComes() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        // 0.72: about 7 s of scanning left, under the 20 s lead: said at once.
        let warm = try await harness.context("set heat 0.72\nwait 300\nscan alice-1")
        _ = try await warm.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([]))
        warm.invalidate()
        var events: [AuthEvent] = []
        for await event in warm.events { events.append(event) }
        let warning = events.compactMap { if case .readerWarming(let left) = $0 { left } else { nil } }
        #expect(warning.count == 1 && warning[0] > 5 && warning[0] < 9, "\(events)")
        // A cool reader says nothing of it; nor does one that never overheats (no heat set).
        for script in ["set heat 0.3\nscan alice-1", "scan alice-1"] {
            let context = try await harness.context(script)
            _ = try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([]))
            context.invalidate()
            var quiet: [AuthEvent] = []
            for await event in context.events { quiet.append(event) }
            #expect(!quiet.contains { if case .readerWarming = $0 { true } else { false } }, "\(script): \(quiet)")
        }
    }
}
