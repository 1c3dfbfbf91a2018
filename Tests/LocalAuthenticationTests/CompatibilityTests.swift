import Foundation
import FPAuthentication
import LocalAuthentication
import LocalAuthenticationInProcess
import Testing
import TestSupport

/// The source documents' flow, written with Apple's names (``SeedApp``), on the
/// fake reader and on libfprint's `virtual_device`. The only Linux-specific lines
/// set ``LAContext/fpbridgeDefaults`` and press the prompt's buttons, which on
/// iOS are the system's.
@Suite(.serialized) struct CompatibilityTests {
    @Test(arguments: ReaderBench.allCases)
    func seedFlowFromNoReaderToRecoveredLockout(_ bench: ReaderBench) async throws {
        try await bench.exclusively { try await seedFlow(bench) }
    }

    func seedFlow(_ bench: ReaderBench) async throws {
        let directory = TemporaryDirectory()
        try bench.configure(directory)

        // No reader at all.
        var noReader = LAContext.fpbridgeDefaults
        noReader.reader = .libfprint(driver: "no_such_driver")
        let saved = LAContext.fpbridgeDefaults
        LAContext.fpbridgeDefaults = noReader
        #expect(await SeedApp.fingerprintLogin().outcome == .unavailable("no Touch ID"))
        let bare = LAContext()
        var error: NSError?
        #expect(!bare.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(bare.biometryType == .none)
        LAContext.fpbridgeDefaults = saved

        // A reader, but no passcode, then no finger.
        #expect(LAContext().biometryType == .none, "unknown until canEvaluatePolicy is called, as on iOS")
        #expect(await SeedApp.fingerprintLogin().outcome == .unavailable("no passcode"))
        try await bench.setPasscode()
        #expect(await SeedApp.fingerprintLogin().outcome == .unavailable("no finger enrolled"))
        let ownerOnly = LAContext()
        #expect(ownerOnly.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(ownerOnly.biometryType == .touchID)
        #expect(ownerOnly.evaluatedPolicyDomainState == nil)

        // Enrolled: check, type, prompt text, evaluate.
        try await bench.enroll(.rightIndex, as: "alice-1", setPasscode: false)
        let checked = LAContext()
        #expect(checked.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        let stateBefore = try #require(checked.evaluatedPolicyDomainState)
        #expect(stateBefore.count == 32)
        #expect(checked.domainState.biometry.stateHash == stateBefore)
        #expect(checked.domainState.biometry.biometryType == .touchID)
        let login = try await bench.touching(["alice-1"]) { await SeedApp.fingerprintLogin() }
        #expect(login.outcome == .loggedIn)
        #expect(login.prompt == "Log in with Touch ID")

        // Three wrong fingers fail the evaluation; two more lock biometry out.
        #expect(try await bench.touching(["mallory", "mallory", "mallory"]) { await SeedApp.fingerprintLogin().outcome } == .tryAgain)
        #expect(try await bench.touching(["mallory", "mallory"]) { await SeedApp.fingerprintLogin().outcome } == .lockedOut)
        #expect(await SeedApp.fingerprintLogin().outcome == .lockedOut, "canEvaluatePolicy reports the lockout without a scan")

        // Seed 003: the passcode unlocks Touch ID, then the finger logs in.
        LAContext.fpbridgeDefaults.prompt = ListedPasscodes([Passcode(stringLiteral: ReaderBench.passcode)])
        #expect(try await bench.touching(["alice-1"]) { try await SeedApp.loginWithRecovery() })

        // The completion-handler form.
        let replied = try await bench.touching(["alice-1"]) { await SeedApp.loginWithReply() }
        #expect(replied.0 && replied.1 == nil)

        // A new finger changes the domain state, as a new enrollment does on iOS.
        try await bench.enroll(.leftIndex, as: "alice-2", setPasscode: false)
        let after = LAContext()
        #expect(after.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        let stateAfter = try #require(after.evaluatedPolicyDomainState)
        #expect(stateAfter != stateBefore)
        #expect(try await bench.touching(["alice-2"]) { await SeedApp.fingerprintLogin().outcome } == .loggedIn)
    }

    @Test(arguments: ReaderBench.allCases)
    func buttonsCancellationAndContextRules(_ bench: ReaderBench) async throws {
        try await bench.exclusively { try await buttonsAndRules(bench) }
    }

    func buttonsAndRules(_ bench: ReaderBench) async throws {
        let directory = TemporaryDirectory()
        try bench.configure(directory)
        try await bench.enroll(.rightIndex, as: "alice-1")

        // Fallback under the biometrics policy: the app gets userFallback.
        let fallback = try await bench.touching(["mallory"]) {
            try await Self.pressing(.fallback) { context in
                try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
            }
        }
        #expect(fallback.code == .userFallback)
        #expect(LAError.userFallback ~= fallback)

        // Fallback under the device-owner policy leads to the passcode.
        LAContext.fpbridgeDefaults.prompt = ListedPasscodes([Passcode(stringLiteral: ReaderBench.passcode)])
        let owner = try await bench.touching(["mallory"]) {
            try await Self.pressing(.fallback, expectingSuccess: true) { context in
                try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Pay 12.00 EUR to Example Shop")
            }
        }
        #expect(owner == nil)

        // Cancel: caught the way iOS code catches it.
        let cancelled = try await bench.touching([]) {
            try await Self.pressing(.cancel) { context in
                try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
            }
        }
        #expect(cancelled.code == .userCancel)
        do {
            throw cancelled
        } catch LAError.userCancel {
            // matched as on iOS
        } catch {
            Issue.record("catch LAError.userCancel did not match \(error)")
        }
        let bridged = cancelled as NSError
        #expect(bridged.domain == LAErrorDomain && bridged.domain == "com.apple.LocalAuthentication")
        #expect(LAError.Code(rawValue: bridged.code) == .userCancel)
        #expect(LAError(bridged)?.code == .userCancel)

        // invalidate() while evaluating: appCancel; afterwards: invalidContext.
        let invalidated = try await bench.touching([]) {
            try await Self.pressing(.invalidate) { context in
                try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
            }
        }
        #expect(invalidated.code == .appCancel)
        let dead = LAContext()
        dead.invalidate()
        var error: NSError?
        #expect(!dead.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        #expect(error?.code == LAError.invalidContext.rawValue)
        await #expect(throws: LAError.self) { _ = try await dead.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Log in") }

        // interactionNotAllowed: no scan, notInteractive.
        let quiet = LAContext()
        quiet.interactionNotAllowed = true
        do {
            _ = try await quiet.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
            Issue.record("an evaluation needing the user succeeded with interaction not allowed")
        } catch LAError.notInteractive {}

        // Reuse: a second evaluation within the window needs no finger; the window is capped at 300 s.
        let reused = try await bench.touching(["alice-1"]) { () async throws -> LAContext in
            let context = LAContext()
            context.touchIDAuthenticationAllowableReuseDuration = 1_000
            #expect(context.touchIDAuthenticationAllowableReuseDuration == LATouchIDAuthenticationMaximumAllowableReuseDuration)
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in"))
            return context
        }
        #expect(try await reused.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in again"))

        // An empty reason is refused, as Apple's API refuses it.
        do {
            _ = try await LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "")
            Issue.record("an empty reason was accepted")
        } catch let error as LAError {
            #expect(error.code == .invalidInput)
        }
    }

    /// Issue 39: iOS's rules reach LocalAuthentication through the engine as Apple's
    /// `biometryLockout`, which Seed 003's recovery (the device-owner policy's passcode) lifts.
    @Test func aPasswordRuleIsBiometryLockoutAndTheDeviceOwnerPasscodeLiftsIt() async throws {
        let directory = TemporaryDirectory()
        try ReaderBench.fake.configure(directory)
        try await ReaderBench.fake.enroll(.rightIndex, as: "alice-1")
        let settings = LAContext.fpbridgeDefaults
        try AuthenticationContext(environment: AuthEnvironment(user: settings.user, reader: nil, stateDirectory: settings.stateDirectory,
                                                               configuration: try #require(settings.configuration))).lockBiometry()
        var error: NSError?
        #expect(!LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        #expect(error?.code == LAError.biometryLockout.rawValue, "\(String(describing: error))")
        #expect("\(String(describing: error))".contains("locked with fpbridge lock"), "\(String(describing: error))")
        #expect(try await ReaderBench.fake.touching(["alice-1"]) { await SeedApp.fingerprintLogin().outcome } == .lockedOut)
        LAContext.fpbridgeDefaults.prompt = ListedPasscodes([Passcode(stringLiteral: ReaderBench.passcode)])
        #expect(try await ReaderBench.fake.touching(["alice-1"]) { try await SeedApp.loginWithRecovery() })
        #expect(try await ReaderBench.fake.touching(["alice-1"]) { await SeedApp.fingerprintLogin().outcome } == .loggedIn)
    }

    /// canEvaluatePolicy is synchronous and finds the reader asynchronously; called from
    /// far more tasks than Swift has threads, every call must still return.
    @Test(.timeLimit(.minutes(1))) func synchronousChecksFromManyTasksAtOnceAllReturn() async throws {
        let directory = TemporaryDirectory()
        try ReaderBench.fake.configure(directory)
        try await ReaderBench.fake.enroll(.rightIndex, as: "alice-1")
        let answers = try await ReaderBench.fake.touching([]) {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        var error: NSError?
                        return LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
        }
        #expect(answers.count == 64 && answers.allSatisfy { $0 })
    }

    /// One reader shared by two contexts: the second evaluation is told the reader is busy.
    @Test func aSharedReaderServesOneEvaluationAtATime() async throws {
        let directory = TemporaryDirectory()
        try ReaderBench.fake.configure(directory)
        try await ReaderBench.fake.enroll(.rightIndex, as: "alice-1")
        LAContext.fpbridgeDefaults.readerInstance = FakeReader(script: try FakeScript.parse("wait 3000\nscan alice-1"))
        defer { LAContext.fpbridgeDefaults.readerInstance = nil }
        let first = LAContext(), second = LAContext()
        async let firstResult = first.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
        // Real time: the first evaluation must be in its 3 s fake wait when the second asks; nothing but time marks that.
        try await Task.sleep(for: .milliseconds(300))
        do {
            _ = try await second.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
            Issue.record("two evaluations ran on one reader at once")
        } catch LAError.readerBusy {}
        #expect(try await firstResult)
    }

    enum Press { case fallback, cancel, invalidate }

    /// Starts an evaluation on a new context and presses a button of its prompt (or
    /// invalidates it) once that is possible; returns the error the evaluation ended with.
    static func pressing(_ press: Press, expectingSuccess: Bool = false,
                         _ evaluation: @escaping @Sendable (LAContext) async throws -> Bool) async throws -> LAError? {
        let context = LAContext()
        let running = Task { try await evaluation(context) }
        let presser = Task {
            // invalidate() before the evaluation starts is a different rule (invalidContext): let it start.
            if press == .invalidate { try? await Task.sleep(for: .milliseconds(500)) }
            while !Task.isCancelled {
                switch press {
                case .fallback: if context.pressFallbackButton() { return }
                case .cancel: context.pressCancelButton()
                case .invalidate: context.invalidate()
                }
                // A poll: the button is pressed again until it is shown.
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { presser.cancel() }
        do {
            let ok = try await running.value
            if !expectingSuccess { Issue.record("the evaluation succeeded (\(ok)) though \(press) was pressed") }
            return nil
        } catch let error as LAError {
            if expectingSuccess { Issue.record("the evaluation failed: \(error)") }
            return error
        }
    }

    static func pressing(_ press: Press, _ evaluation: @escaping @Sendable (LAContext) async throws -> Bool) async throws -> LAError {
        try #require(try await pressing(press, expectingSuccess: false, evaluation))
    }
}
