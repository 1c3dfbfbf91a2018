import Foundation
import LocalAuthentication
import Testing
import TestSupport

/// `LAContext` through a real `fpbridged`: the same answers as in-process, with the counters,
/// the lockout and the buttons in the service.
@Suite(.serialized) struct ServiceCompatibilityTests {
    let directory = TemporaryDirectory()

    var state: String { directory.file("state") }
    var script: String { directory.file("touches.txt") }

    /// The fake reader's next touches (read afresh by each evaluation in the service).
    func touches(_ text: String) throws {
        try text.write(toFile: script, atomically: true, encoding: .utf8)
    }

    func settings(_ service: ServiceProcess, passcodes: [Passcode] = []) -> FPBridgeSettings {
        var settings = FPBridgeSettings(reader: .fake(scriptPath: script), stateDirectory: StateDirectory(path: state), user: "alice",
                                        prompt: ListedPasscodes(passcodes), terminalInterface: false)
        settings.service = service.socket
        return settings
    }

    func code(_ body: () async throws -> Bool) async -> LAError.Code? {
        do {
            _ = try await body()
            return nil
        } catch let error as LAError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func theSeedFlowThroughTheService() async throws {
        let service = try await ServiceProcess()
        try directory.privateDirectory("state")
        let cli = ["--json", "--reader", "fake:" + script, "--state-dir", state, "--user", "alice"]
        #expect(try await Fpbridge.run(cli + ["passcode", "set", "--passcode-stdin"], environment: service.clientEnvironment,
                                       input: "2468\n").status == 0)
        try touches(String(repeating: "scan a\n", count: 5))
        #expect(try await Fpbridge.run(cli + ["enroll", "--finger", "right-index", "--passcode-stdin"],
                                       environment: service.clientEnvironment, input: "2468\n").status == 0)

        let context = LAContext(fpbridge: settings(service))
        var error: NSError?
        #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error), "\(String(describing: error))")
        #expect(context.biometryType == .touchID)
        let state = try #require(context.evaluatedPolicyDomainState)
        try touches("scan a")
        #expect(try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in"))

        // Three wrong fingers end the evaluation; the count lives in the service.
        try touches("scan x\nscan y\nscan z")
        #expect(await code { try await LAContext(fpbridge: settings(service)).evaluatePolicy(
            .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in") } == .authenticationFailed)

        // The buttons: fallback only once offered, cancel, invalidate.
        try touches("scan x\nwait 30000")
        let fallback = LAContext(fpbridge: settings(service))
        #expect(!fallback.pressFallbackButton(), "no button before the first failed match")
        async let fellBack = code { try await fallback.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in") }
        try await waitFor { fallback.pressFallbackButton() }
        #expect(await fellBack == .userFallback)
        try touches("wait 30000")
        let cancelled = LAContext(fpbridge: settings(service))
        async let userCancel = code { try await cancelled.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in") }
        // Real time: the cancel must reach fpbridged while the evaluation waits there (its 30 s fake wait); the cancel button reports nothing to wait for.
        try await Task.sleep(for: .milliseconds(500))
        cancelled.pressCancelButton()
        #expect(await userCancel == .userCancel)
        let invalidated = LAContext(fpbridge: settings(service))
        async let appCancel = code { try await invalidated.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in") }
        // Real time: as above, for invalidate.
        try await Task.sleep(for: .milliseconds(500))
        invalidated.invalidate()
        #expect(await appCancel == .appCancel)
        #expect(await code { try await invalidated.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in") }
                == .invalidContext)

        // One more miss makes five in a row: locked out, seen by every new context; the passcode lifts it.
        try touches("scan x")
        #expect(await code { try await LAContext(fpbridge: settings(service)).evaluatePolicy(
            .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in") } == .biometryLockout)
        let locked = LAContext(fpbridge: settings(service))
        #expect(!locked.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        #expect(error?.code == LAError.Code.biometryLockout.rawValue)
        #expect(try await LAContext(fpbridge: settings(service, passcodes: ["2468"])).evaluatePolicy(
            .deviceOwnerAuthentication, localizedReason: "Unlock"))
        try touches("scan a")
        let again = LAContext(fpbridge: settings(service))
        #expect(try await again.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in"))
        #expect(again.evaluatedPolicyDomainState == state, "the same fingers, the same domain state")
    }

    func waitFor(seconds: Double = 10, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return }
            // A poll (the deadline above).
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the condition did not hold within \(seconds) s")
    }
}
