import FPAuthentication
import FPCore
import FPReaders
import Foundation
import Testing

@Suite struct PolicyTests {
    // Seed 001's table: passcode only / print only / neither, under both policies.
    @Test(arguments: [
        (true, false, AuthPolicy.biometrics, AuthErrorCode?.some(.biometryNotEnrolled)),
        (false, true, .biometrics, .passcodeNotSet),
        (false, false, .biometrics, .passcodeNotSet),
        (true, true, .biometrics, nil),
        (true, false, .deviceOwner, nil),
        (false, true, .deviceOwner, .passcodeNotSet),
        (false, false, .deviceOwner, .passcodeNotSet),
    ])
    func seed001Table(passcode: Bool, print: Bool, policy: AuthPolicy, expected: AuthErrorCode?) async throws {
        let harness = EngineHarness()
        if print {
            // Prints without a passcode only exist from before enrolling needed one: made, then the passcode file dropped.
            try await harness.enroll()
            if !passcode { try FileManager.default.removeItem(atPath: harness.state.file("passcodes", "alice.json")) }
        } else if passcode {
            try await harness.setPasscode()
        }
        let availability = try await harness.context("").canEvaluate(policy)
        #expect(availability.error?.code == expected)
        #expect(availability.biometryType == .fingerprint)
    }

    @Test func noReaderMeansBiometryNotAvailableButThePasscodeStillWorks() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        let context = try await harness.context("", reader: false)
        #expect(await context.canEvaluate(.biometrics).error?.code == .biometryNotAvailable)
        #expect(await context.canEvaluate(.deviceOwner).available)
        #expect(context.biometryType == .none)
        let success = try await context.evaluate(.deviceOwner, reason: "x", prompt: ListedPasscodes(["2468"]))
        #expect(success.method == .passcode)
    }

    @Test func threeFailuresEndAnEvaluationAndFiveLockAcrossEvaluations() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        #expect(try await harness.evaluate(.biometrics, "scan x\nscan y\nscan z\nscan alice-1") == .authenticationFailed)
        #expect(harness.counter().biometricFailures == 3)
        #expect(try await harness.evaluate(.biometrics, "scan x\nscan y\nscan alice-1") == .biometryLockout)
        // Locked: the right finger is refused without consuming a scan.
        let context = try await harness.context("scan alice-1")
        await #expect(throws: AuthError.self) { try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([])) }
        #expect(await context.canEvaluate(.biometrics).error?.code == .biometryLockout)
        // Issue 51: on a desktop nobody set a passcode; the message names what lifts it there too.
        let message = await context.canEvaluate(.biometrics).error?.message ?? ""
        #expect(message.hasSuffix("the fpbridge passcode unlocks it, and so does the login password where the fpbridge-password PAM profile is on"), "\(message)")
    }

    @Test func retriesNeverCountAndSuccessResets() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        #expect(try await harness.evaluate(.biometrics, "scan x\nretry center\nretry too-short\nretry remove\nscan alice-1") == nil)
        #expect(harness.counter().biometricFailures == 0)
        #expect(try await harness.evaluate(.biometrics, "scan x\nscan y\nscan z") == .authenticationFailed)
        #expect(try await harness.evaluate(.biometrics, "scan alice-1") == nil)
        #expect(harness.counter().biometricFailures == 0)
    }

    @Test func fallbackIsOfferedOnlyAfterTheFirstFailure() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        // A fallback press before any failure does nothing: the button is not there yet.
        #expect(try await harness.evaluate(.biometrics, "fallback\nscan alice-1") == nil)
        #expect(try await harness.evaluate(.biometrics, "scan x\nfallback") == .userFallback)
        // An empty title hides the button altogether.
        #expect(try await harness.evaluate(.biometrics, "scan x\nfallback\nscan alice-1") { $0.fallbackTitle = "" } == nil)
        #expect(try await harness.evaluate(.biometrics, "cancel") == .userCancel)
    }

    @Test func aFrontEndCanPressFallbackWhileTheReaderWaits() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        // The reader would wait 20 s for the next finger; the button ends that scan at once.
        for (policy, expected) in [(AuthPolicy.deviceOwner, AuthErrorCode?.none), (.biometrics, .userFallback)] {
            let context = try await harness.context("scan x\nwait 20000\nscan alice-1")
            #expect(!context.chooseFallback(), "no button before the first failed match")
            let presser = Task {
                for await event in context.events {
                    if case .fallbackOffered = event { return context.chooseFallback() }
                }
                return false
            }
            let start = ContinuousClock.now
            var code: AuthErrorCode?
            var method: AuthMethod?
            do {
                method = try await context.evaluate(policy, reason: "test", prompt: ListedPasscodes(["2468"])).method
            } catch {
                code = error.code
            }
            context.invalidate()
            #expect(await presser.value)
            #expect(code == expected && (expected != nil || method == .passcode), "\(policy): \(String(describing: code))")
            #expect(ContinuousClock.now - start < .seconds(10), "the scan was not interrupted")
        }
        // The first run's passcode reset the count; the second run's miss counts, its button press does not.
        #expect(harness.counter().biometricFailures == 1)
    }

    @Test func eventsTellTheFrontEndWhatToShow() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        let context = try await harness.context("retry center\nscan x\nscan alice-1")
        context.fallbackTitle = "Use PIN"
        _ = try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([]))
        context.invalidate()
        var events: [AuthEvent] = []
        for await event in context.events { events.append(event) }
        #expect(events == [
            .presentFinger(.press), .retryHint(.center), .presentFinger(.press), .fingerDetected,
            .noMatch(attemptsLeftInEvaluation: 2, attemptsLeftBeforeLockout: 4), .fallbackOffered(title: "Use PIN"),
            .presentFinger(.press), .fingerDetected, .matched(user: "alice", finger: .rightIndex),
        ])
    }

    /// Issue 25: a one-touch evaluation (a kiosk's identify) says the attempts left before the
    /// lockout on its one failure too, where it used to end with the error alone.
    @Test func theLastFailedMatchStillSaysTheAttemptsLeft() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        let context = try await harness.context("scan x")
        await #expect(throws: AuthError.self) {
            _ = try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
        }
        context.invalidate()
        var events: [AuthEvent] = []
        for await event in context.events { events.append(event) }
        #expect(events.last == .noMatch(attemptsLeftInEvaluation: 0, attemptsLeftBeforeLockout: 4), "\(events)")
    }

    /// Issue 25: a reader that overheats or goes away during a device-owner evaluation leaves
    /// the passcode, as iOS does when biometry is unavailable; under biometrics it is the error.
    @Test func deviceOwnerFallsToThePasscodeWhenTheReaderBecomesUnavailable() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        for script in ["error too-hot", "unplug"] {
            let code = try await harness.evaluate(.deviceOwner, script, passcodes: ["2468"])
            #expect(code == nil, "\(script): \(String(describing: code))")
            #expect(try await harness.evaluate(.biometrics, script) != nil, "\(script) under biometrics")
        }
        #expect(!harness.counter().biometryLockedOut && harness.counter().biometricFailures == 0, "nothing counted")
    }

    @Test func deviceOwnerFallsToThePasscodeAndThePasscodeEndsLockout() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        #expect(try await harness.evaluate(.biometrics, "scan a\nscan b\nscan c") == .authenticationFailed)
        #expect(try await harness.evaluate(.biometrics, "scan d\nscan e") == .biometryLockout)
        #expect(harness.counter().biometryLockedOut)
        #expect(try await harness.evaluate(.deviceOwner, "", passcodes: ["2468"]) == nil)
        #expect(!harness.counter().biometryLockedOut)
        #expect(try await harness.evaluate(.biometrics, "scan alice-1") == nil)
        // After the fallback, device owner asks for the passcode too.
        #expect(try await harness.evaluate(.deviceOwner, "scan x\nfallback", passcodes: ["2468"]) == nil)
    }

    @Test func recoveryFlowIsOneCall() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        #expect(try await harness.evaluate(.biometrics, "scan a\nscan b\nscan c") == .authenticationFailed)
        #expect(try await harness.evaluate(.biometrics, "scan d\nscan e") == .biometryLockout)
        let context = try await harness.context("scan alice-1")
        let success = try await context.recoverAndEvaluate(reason: "x", prompt: ListedPasscodes(["2468"]))
        #expect(success.method == .fingerprint)
    }

    @Test func sixWrongPasscodesLockWithEscalatingWaits() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        let wrong: [Passcode] = Array(repeating: "0000", count: 6)
        let context = try await harness.context("", reader: false)
        do {
            _ = try await context.unlockWithPasscode(reason: "x", prompt: ListedPasscodes(wrong))
            Issue.record("six wrong passcodes were accepted")
        } catch {
            #expect(error.code == .passcodeLockout)
            #expect((error.retryAfter ?? 0) > 55 && (error.retryAfter ?? 0) <= 60)
        }
        // The correct passcode is not even checked while the lockout lasts, in any context.
        let later = try await harness.context("", reader: false)
        await #expect(throws: AuthError.self) { try await later.unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"])) }
        #expect(harness.counter().passcodeFailures == 6)
    }

    @Test func passcodeNotSetAndNotEnrolledAreToldApart() async throws {
        let harness = EngineHarness()
        #expect(try await harness.context("").canEvaluate(.biometrics).error?.code == .passcodeNotSet)
        try await harness.setPasscode()
        #expect(try await harness.context("").canEvaluate(.biometrics).error?.code == .biometryNotEnrolled)
    }

    @Test func aDamagedCounterFailsClosedOnBothPathsUntilRepaired() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        let path = harness.state.file("counters", "user-alice.json")
        try FileManager.default.createDirectory(atPath: harness.state.file("counters"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try await harness.evaluate(.biometrics, "scan alice-1") == .biometryLockout)
        // No passcode guesses against a counter that cannot count them.
        #expect(try await harness.evaluate(.deviceOwner, "", passcodes: ["2468"]) == .stateDamaged)
        #expect(try await harness.context("").canEvaluate(.deviceOwner).error?.code == .stateDamaged)
        #expect(FileManager.default.contents(atPath: path) == Data("garbage".utf8))
        let repair = StateRepair(stateDirectory: harness.state)
        let findings = try repair.findings()
        #expect(findings.map(\.path) == [path])
        let moved = try repair.repair(findings)
        #expect(moved.count == 1 && FileManager.default.contents(atPath: moved[0]) == Data("garbage".utf8), "kept for inspection")
        #expect(try await harness.evaluate(.biometrics, "scan alice-1") == .biometryLockout, "repaired means locked out")
        #expect(try await harness.evaluate(.deviceOwner, "", passcodes: ["2468"]) == nil)
        #expect(try await harness.evaluate(.biometrics, "scan alice-1") == nil)
    }

    @Test func identificationCountsPerReaderNotPerUser() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        try await harness.enroll(id: "bob-1", user: "bob")
        let success = try await harness.context("scan bob-1").identify(reason: "x")
        #expect(success.user == "bob")
        for _ in 0..<5 {
            _ = try? await harness.context("scan mallory").identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
        }
        await #expect(throws: AuthError.self) { try await harness.context("scan bob-1").identify(reason: "x") }
        #expect(harness.counter("alice").biometricFailures == 0)
    }

    @Test func invalidateCancelsAndThenRefuses() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        let context = try await harness.context("wait 10000\nscan alice-1")
        let task = Task { try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([])) }
        // Real time: invalidate must land while the evaluation waits in its scan (the fake reader's 10 s); no event marks that.
        try await Task.sleep(for: .milliseconds(100))
        context.invalidate()
        await #expect { try await task.value } throws: { ($0 as? AuthError)?.code == .appCancel }
        await #expect { try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([])) } throws: {
            ($0 as? AuthError)?.code == .invalidContext
        }
    }

    @Test func reuseWindowAndNoInteraction() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        let context = try await harness.context("scan alice-1")
        context.reuseDuration = 10_000
        #expect(context.reuseDuration == 300)
        _ = try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([]))
        #expect(try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([])).method == .reused)
        #expect(try await harness.evaluate(.biometrics, "scan alice-1") { $0.interactionNotAllowed = true } == .notInteractive)
    }

    @Test func aTimeoutStopsScanning() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        let context = try await harness.with(scanTimeout: 0.2).context("wait 30000\nscan alice-1")
        await #expect { try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([])) } throws: {
            ($0 as? AuthError)?.code == .timedOut
        }
    }

    // With 1000 real-sized prints identify used to fail with "no finger was presented" after
    // 30 s although the finger was there: the timeout is for waiting, not for matching.
    @Test func matchingTimeIsNotCountedAsWaitingForAFinger() async throws {
        let harness = EngineHarness()
        try await harness.enroll()
        let context = try await harness.with(scanTimeout: 0.3).context("set matching 1200\nwait 100\nscan alice-1")
        #expect(try await context.verifyFinger(reason: "x").method == .fingerprint)
    }

    @Test func unplugDuringEvaluationIsDisconnectedAndKeepsPrints() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        try await harness.enroll()
        let hash = try await harness.context("").enrollmentStateHash()
        #expect(try await harness.evaluate(.biometrics, "wait 20\nunplug") == .biometryDisconnected)
        #expect(try await harness.context("").enrollmentStateHash() == hash)
    }

    @Test func alreadyEnrolledIsRefusedUnlessReplaced() async throws {
        let harness = EngineHarness()
        try await harness.enroll()
        await #expect { try await harness.enroll() } throws: { ($0 as? AuthError)?.code == .alreadyEnrolled }
    }
}
