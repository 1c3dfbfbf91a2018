import FPAuthentication
import FPCore
import FPReaders
import FPStore
import Foundation
import Testing

/// Issue 8's lockout bypasses, each as an attacker or an unlucky user would try it.
@Suite struct LockoutDefectTests {
    /// Locks alice out through five failed verifications.
    func lockOut(_ harness: EngineHarness, user: String = "alice") async throws {
        for _ in 0..<5 {
            let context = try await harness.context("scan mallory", user: user)
            _ = try? await context.verifyFinger(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
        }
        #expect(harness.counter(user).biometryLockedOut)
    }

    enum Answer: Equatable, Sendable {
        case identified(String)
        case failure(AuthErrorCode?)
    }

    func identify(_ harness: EngineHarness, _ script: String) async throws -> Answer {
        let context = try await harness.context(script, user: "kiosk")
        do {
            return .identified(try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1)).user)
        } catch {
            return .failure(error.code)
        }
    }

    @Test func aLockedOutUserIsNeverIdentified() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        try await harness.enroll(id: "bob-1", user: "bob")
        try await lockOut(harness)
        #expect(try await identify(harness, "scan alice-1") == .failure(.authenticationFailed), "as if her print were not there")
        #expect(try await identify(harness, "scan bob-1") == .identified("bob"))
        // Her passcode ends her lockout, and she is identified again.
        _ = try await harness.context("", reader: false).unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"]))
        #expect(try await identify(harness, "scan alice-1") == .identified("alice"))
    }

    @Test func aUserLockedOutWhileTheScanRunsIsNotIdentified() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        try await harness.enroll(id: "bob-1", user: "bob")
        // Alice's finger arrives 1.5 s in; her lockout (by another process, say) lands at once.
        // Whether the gallery was built before it or not, she must not be identified.
        let scan = Task { try await identify(harness, "wait 1500\nscan alice-1") }
        try await Task.sleep(for: .milliseconds(100))
        try CounterStore(directory: harness.state).transaction { counters in
            counters[.user("alice")].biometricFailures = 5
            counters[.user("alice")].biometryLockedOut = true
        }
        #expect(try await scan.value == .failure(.authenticationFailed))
    }

    /// Five strangers lock the kiosk's reader for a while.
    func lockReader(_ harness: EngineHarness) async throws {
        for attempt in 1...5 {
            #expect(try await identify(harness, "scan stranger-\(attempt)") == .failure(attempt < 5 ? .authenticationFailed : .biometryLockout))
        }
    }

    @Test func aNewUsersPasscodeNeverClearsAReaderLockout() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        try await lockReader(harness)
        #expect(try await identify(harness, "scan alice-1") == .failure(.biometryLockout))
        // Mallory has no print and a brand new passcode: neither clears the reader.
        try await harness.setPasscode("1111", user: "mallory")
        _ = try await harness.context("", user: "mallory").unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["1111"]))
        #expect(try await identify(harness, "scan alice-1") == .failure(.biometryLockout))
        // Nor does a user who enrolled on the reader after the lockout began.
        try await harness.enroll(id: "trudy-1", user: "trudy")
        _ = try await harness.context("", user: "trudy").unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"]))
        #expect(try await identify(harness, "scan alice-1") == .failure(.biometryLockout))
        // Alice was enrolled before it: her passcode clears it.
        _ = try await harness.context("", user: "alice").unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"]))
        #expect(try await identify(harness, "scan alice-1") == .identified("alice"))
    }

    @Test func identificationLockoutIsTimedEscalatesAndBecomesPermanent() async throws {
        let harness = EngineHarness()
        var configuration = harness.configuration
        // The real waits: the engine's clock is moved past them instead of sleeping.
        configuration.identificationLockoutSeconds = [30, 120]
        configuration.identificationPermanentLockoutThreshold = 15
        let fast = harness.with(configuration)
        try await fast.enroll(id: "alice-1", user: "alice")
        var waits: [TimeInterval] = []
        for round in 1...3 {
            for attempt in 1...5 {
                let context = try await fast.context("scan stranger", user: "kiosk")
                do {
                    _ = try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
                } catch {
                    #expect(error.code == (attempt < 5 ? .authenticationFailed : .biometryLockout), "round \(round) attempt \(attempt)")
                    if attempt == 5, let wait = error.retryAfter { waits.append(wait) }
                }
            }
            let refused = try await fast.context("scan alice-1", user: "kiosk")
            await #expect(throws: AuthError.self) { try await refused.identify(reason: "x") }
            fast.advance(by: (waits.last ?? 0) + 1)
        }
        #expect(waits.count == 2 && waits[0] < waits[1], "timed, then longer: \(waits)")
        // The 15th failure is permanent: waiting does not help, only an enrolled user's passcode.
        let later = try await fast.context("scan alice-1", user: "kiosk")
        await #expect(throws: AuthError.self) { try await later.identify(reason: "x") }
        #expect(fast.readerCounter().biometryLockedOut)
        _ = try await fast.context("", user: "alice").unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"]))
        #expect(try await fast.context("scan alice-1", user: "kiosk").identify(reason: "x").user == "alice")
    }

    @Test func concurrentWrongFingersNeverExceedTheLimitAndLateRightFingersAreRefused() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        try CounterStore(directory: harness.state).transaction { $0[.user("alice")].biometricFailures = 4 }
        let results = try await withThrowingTaskGroup(of: AuthErrorCode?.self) { group in
            for index in 0..<10 {
                // The right finger comes well after the wrong ones, whatever the load on the machine.
                let script = index == 9 ? "wait 3000\nscan alice-1" : "wait 150\nscan wrong-\(index)"
                let context = try await harness.context(script)
                group.addTask {
                    do {
                        _ = try await context.verifyFinger(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
                        return nil
                    } catch {
                        return (error as? AuthError)?.code
                    }
                }
            }
            return try await group.reduce(into: [AuthErrorCode?]()) { $0.append($1) }
        }
        #expect(harness.counter().biometricFailures == 5, "5 allowed, \(harness.counter().biometricFailures) recorded")
        #expect(results.allSatisfy { $0 == .biometryLockout }, "\(results)")
    }

    @Test func concurrentPasscodeSetsLeaveOneWorkingPasscode() async throws {
        let harness = EngineHarness()
        let results = await withTaskGroup(of: (String, Bool).self) { group in
            for passcode in ["1111", "2222", "3333", "4444"] {
                group.addTask {
                    do {
                        try await PasscodeManager(context: try await harness.context("", reader: false)).set(Passcode(passcode))
                        return (passcode, true)
                    } catch {
                        return (passcode, false)
                    }
                }
            }
            return await group.reduce(into: [(String, Bool)]()) { $0.append($1) }
        }
        let winners = results.filter(\.1).map(\.0)
        #expect(winners.count == 1, "\(results)")
        let context = try await harness.context("", reader: false)
        #expect(try await context.unlockWithPasscode(reason: "x", prompt: ListedPasscodes([Passcode(winners[0])])).method == .passcode)
    }

    @Test func concurrentEnrollmentsOfOneFingerLoseNoPrint() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        let results = await withTaskGroup(of: Bool.self) { group in
            for id in ["first", "second"] {
                group.addTask {
                    do {
                        try await harness.enroll(id: id)
                        return true
                    } catch {
                        return (error as? AuthError)?.code == .alreadyEnrolled ? false : true
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1, "exactly one enrollment reports success")
        let stored = try PrintStore(directory: harness.state).prints(user: "alice", reader: nil)
        #expect(stored.count == 1)
    }

    @Test func anEmptyEntryIsNotAWrongPasscode() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        let context = try await harness.context("", reader: false)
        _ = try? await context.unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["", "", "0000"]))
        #expect(harness.counter().passcodeFailures == 1)
        let cancelled = try await harness.context("", reader: false)
        await #expect { try await cancelled.unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["", "", "", "2468"])) } throws: {
            ($0 as? AuthError)?.code == .userCancel
        }
        #expect(harness.counter().passcodeFailures == 1)
    }

    @Test func passcodeRulesLeaveNoWayToClearAnotherUsersLockout() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        // Setting over an existing passcode needs the current one.
        let context = try await harness.context("", reader: false)
        await #expect { try await PasscodeManager(context: context).set("9999") } throws: { ($0 as? AuthError)?.code == .userCancel }
        await #expect { try await PasscodeManager(context: context).set("9999", prompt: ListedPasscodes(["0000"])) } throws: {
            ($0 as? AuthError)?.code == .authenticationFailed
        }
        try await PasscodeManager(context: try await harness.context("", reader: false)).set("9999", prompt: ListedPasscodes(["2468"]))
        // A user whose passcode file is gone but whose prints remain, locked out: a new passcode is refused.
        try await lockOut(harness)
        try FileManager.default.removeItem(atPath: harness.state.file("passcodes", "alice.json"))
        await #expect { try await PasscodeManager(context: try await harness.context("", reader: false)).set("1234") } throws: {
            ($0 as? AuthError)?.code == .biometryLockout
        }
    }

    @Test func anEnrollmentWithNoFingerEndsAtTheScanTimeout() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        let context = try await harness.with(scanTimeout: 0.3).context("scan a\nscan a\nwait 60000\nscan a")
        let start = ContinuousClock.now
        await #expect {
            for try await _ in Enrollment(context: context).enroll(.leftThumb, replace: false, prompt: ListedPasscodes(["2468"])) {}
        } throws: { ($0 as? AuthError)?.code == .timedOut }
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(try PrintStore(directory: harness.state).prints(user: "alice", reader: nil).isEmpty)
    }
}

/// scrypt is slow on purpose; the state lock must not be held while it runs, or
/// one user guessing passcodes stalls every other user's scans.
@Suite struct PasscodeHashingTests {
    @Test func theStateLockIsFreeWhileAPasscodeIsHashed() async throws {
        let harness = EngineHarness()
        var slow = harness.configuration
        slow.passcodeHashRounds = 1 << 15
        let slowHarness = harness.with(slow)
        try await slowHarness.setPasscode(user: "slow")
        let context = try await slowHarness.context("", user: "slow", reader: false)
        let hashing = Task {
            for await event in context.events {
                if case .passcodeRequested = event { return }
            }
        }
        let start = ContinuousClock.now
        let unlock = Task { try await context.unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"])) }
        await hashing.value
        // Real time: scrypt is under way once the prompt was answered (the event above); this lets it start before the lock is timed against it.
        try await Task.sleep(for: .milliseconds(20))
        let before = ContinuousClock.now
        try CounterStore(directory: harness.state).transaction { $0[.user("alice")].biometricFailures = 0 }
        let lockWait = ContinuousClock.now - before
        _ = try await unlock.value
        let unlockTime = ContinuousClock.now - start
        context.invalidate()
        // Measured side by side: holding the lock through scrypt would make the wait most of the unlock.
        #expect(lockWait * 2 < unlockTime, "lock wait \(lockWait) during an unlock of \(unlockTime)")
    }
}
