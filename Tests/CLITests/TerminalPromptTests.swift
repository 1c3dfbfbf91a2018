import Foundation
import Testing
import TestSupport

/// `fpbridge auth` at a terminal, driven through a pseudo-terminal.
@Suite(.serialized) struct TerminalPromptTests {
    let directory = TemporaryDirectory()

    func prepare() async throws -> [String] {
        let state = directory.file("state")
        let enroll = directory.file("enroll.txt"), auth = directory.file("auth.txt")
        try Data(String(repeating: "scan alice-1\n", count: 5).utf8).write(to: URL(fileURLWithPath: enroll))
        // One miss, then a reader that waits far longer than the test for the next finger.
        try Data("scan x\nwait 40000\nscan alice-1\n".utf8).write(to: URL(fileURLWithPath: auth))
        let base = ["--state-dir", state, "--user", "alice"]
        #expect(try await Fpbridge.run(base + ["--reader", "fake:" + enroll, "enroll", "--finger", "right-index"]).status == 0)
        #expect(try await Fpbridge.run(base + ["passcode", "set", "--passcode-stdin"], input: "1357\n").status == 0)
        return base + ["--reader", "fake:" + auth]
    }

    @Test func enterTakesTheFallbackToThePasscodeWhileTheReaderWaits() async throws {
        let base = try await prepare()
        let start = Date()
        let result = try await Fpbridge.runInTerminal(base + ["auth", "--policy", "device-owner"],
                                                      keystrokes: [(.seconds(2), "\n"), (.seconds(1.5), "1357\n")])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("Press Enter for [Enter Passcode]"))
        #expect(result.stdout.contains("Authenticated alice by passcode."))
        #expect(!result.stdout.contains("1357"), "the passcode must not be echoed")
        #expect(Date().timeIntervalSince(start) < 20, "the fallback key did not end the scan")
    }

    @Test func enterUnderTheBiometricsPolicyIsUserFallback() async throws {
        let base = try await prepare()
        let result = try await Fpbridge.runInTerminal(base + ["--json", "auth", "--policy", "biometrics"],
                                                      keystrokes: [(.seconds(2), "\n")])
        #expect(result.status == 1 && result.stdout.contains("\"code\":-3"), "\(result.stdout)")
    }
}
