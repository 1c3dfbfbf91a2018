import FPAuthentication
import FPCore
import FPReaders
import FPStore
import Foundation
import Testing

/// Issue 27 §2: races in one context. A success reused from an earlier evaluation must not take
/// the place of the evaluation that is really running.
@Suite struct ContextRaceTests {
    @Test func aReusedSuccessLeavesTheRunningEvaluationCancellableAndAlone() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1")
        let context = try await harness.context("scan alice-1\nwait 4000\nscan alice-1")
        context.reuseDuration = 60
        _ = try await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([]))
        // A fingerprint check (never reused) that waits 4 s for its finger starts while reused
        // successes of the biometrics policy come and go around it.
        let reuses = (0..<40).map { _ in
            Task { try? await context.evaluate(.biometrics, reason: "x", prompt: ListedPasscodes([])) }
        }
        let running = Task { () -> AuthErrorCode? in
            do {
                _ = try await context.verifyFinger(reason: "x")
                return nil
            } catch {
                return AuthError(error).code
            }
        }
        var reused = 0
        for task in reuses {
            if await task.value?.method == .reused { reused += 1 }
        }
        #expect(reused > 0)
        // Real time: the running check is still in its fake reader's 4 s wait; this only lets the reuses above settle first.
        try await Task.sleep(for: .milliseconds(300))
        // A third evaluation still finds the context busy with the running one.
        do {
            _ = try await context.identify(reason: "x")
            Issue.record("a third evaluation ran beside the running one")
        } catch {
            #expect(error.code == .readerBusy)
        }
        // Cancelling reaches the running check (left alone, its finger would match: nil).
        context.cancel(.app)
        #expect(await running.value == .appCancel)
    }
}

/// Issue 27 §1: removing the passcode and enrolling at the same time never leaves a print
/// without a passcode.
@Suite struct PasscodeRemovalRaceTests {
    @Test func anEnrollmentThatEndsAfterThePasscodeWasRemovedSavesNothing() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        // The enrollment takes the passcode, then waits 1.5 s for its five scans.
        let context = try await harness.context("wait 1500\n" + String(repeating: "scan alice-1\n", count: 5))
        let enrolling = Task { () -> AuthErrorCode? in
            do {
                for try await _ in Enrollment(context: context).enroll(.rightIndex, replace: false, prompt: ListedPasscodes(["2468"])) {}
                return nil
            } catch {
                return AuthError(error).code
            }
        }
        // Real time: the enrollment must have taken its passcode and be in its 1.5 s wait when the passcode goes; nothing but time marks that.
        try await Task.sleep(for: .milliseconds(500))
        let remover = try await harness.context("", reader: false)
        _ = try await PasscodeManager(context: remover).remove(prompt: ListedPasscodes(["2468"]))
        #expect(await enrolling.value == .passcodeNotSet)
        #expect(try PrintStore(directory: harness.state).prints(user: "alice", reader: nil).isEmpty,
                "a print without a passcode could never be recovered from a lockout")
        #expect(try PasscodeStore(directory: harness.state).record(user: "alice") == nil)
    }
}
