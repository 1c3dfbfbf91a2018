import Foundation
import Testing
import TestSupport

/// `fpbridge auth` at a terminal, driven through a pseudo-terminal, on both backends:
/// the fallback key does nothing before the first failed match, then takes the user
/// to the passcode without waiting for the reader.
@Suite(.serialized) struct TerminalPromptTests {
    /// Runs `auth` in a terminal; the first miss comes about 1.5 s in, and the reader then waits.
    func auth(_ bench: Bench, policy: String, keystrokes: [(after: Duration, keys: String)]) async throws -> CommandResult {
        let base = ["--state-dir", bench.state, "--user", "alice"]
        if bench.backend.isFake {
            let script = bench.directory.file("auth.txt")
            try Data("wait 1500\nscan x1\nwait 40000\nscan p1\n".utf8).write(to: URL(fileURLWithPath: script))
            return try await Fpbridge.runInTerminal(base + ["--reader", "fake:" + script, "auth", "--policy", policy],
                                                    keystrokes: keystrokes, environment: bench.serviceEnvironment)
        } else {
            async let result = Fpbridge.runInTerminal(
                base + ["--reader", "libfprint:virtual_device", "auth", "--policy", policy], keystrokes: keystrokes,
                environment: bench.virtualDeviceEnvironment())
            try await VirtualReaderDriver.waitForListener(bench.socket)
            // Real time: the CLI arms virtual_device's scan after it drew its prompt; the device's socket says nothing of it, and a SCAN sent sooner is lost.
            try await Task.sleep(for: .milliseconds(1500))
            try await VirtualReaderDriver.send(bench.socket, ["SCAN x1"])
            return try await result
        }
    }

    @Test(arguments: Backend.allCases)
    func enterTakesTheFallbackOnlyAfterTheFirstMiss(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.setPasscode("1357")
        try await bench.enroll()
        // Enter at 0.5 s: no button yet, nothing happens. Enter at 3.5 s: the passcode prompt.
        let result = try await auth(bench, policy: "device-owner",
                                    keystrokes: [(.milliseconds(500), "\n"), (.seconds(3), "\n"), (.seconds(1.5), "1357\n")])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("No match. 2 attempts left"), "the early Enter must not skip the scan")
        #expect(result.stdout.contains("Press Enter for [Enter Passcode]"))
        #expect(result.stdout.contains("Authenticated alice by passcode."))
        #expect(!result.stdout.contains("1357"), "the passcode must not be echoed")
        // The passcode ended it (status 0 above): the 8 s scan timeout would have ended the
        // command with -2003, and the fake reader's matching touch comes only after 41.5 s.
    }

    @Test(arguments: Backend.allCases)
    func enterUnderTheBiometricsPolicyIsUserFallback(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.setPasscode()
        try await bench.enroll()
        let result = try await auth(bench, policy: "biometrics", keystrokes: [(.seconds(3.5), "\n")])
        #expect(result.status == 1 && result.stdout.contains("userFallback -3"), "\(result.stdout)")
    }
}
