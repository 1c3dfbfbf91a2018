import Foundation
import Testing
import TestSupport

/// The passcode prompt as a person meets it at a terminal (through a pty), and as a
/// script feeds it: Ctrl-C cancels, an empty Enter is no guess, no wait lasts forever,
/// and a process holding a passcode cannot dump core.
@Suite(.serialized) struct PasscodePromptTests {
    let directory = TemporaryDirectory()

    func setUp(timeout: Int = 60) async throws -> [String] {
        let state = try directory.privateDirectory("state")
        try Data(#"{"passcodeTimeoutSeconds": \#(timeout)}"#.utf8).write(to: URL(fileURLWithPath: state + "/config.json"))
        let base = ["--state-dir", state, "--user", "alice", "--reader", "fake"]
        #expect(try await Fpbridge.run(base + ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        return base
    }

    func failures(_ base: [String]) async throws -> Int? {
        ((try await Fpbridge.run(base + ["--json", "status"])).json["passcode"] as? [String: Any])?["failures"] as? Int
    }

    @Test func ctrlCAtThePasscodePromptCancels() async throws {
        let base = try await setUp()
        let start = Date()
        let result = try await Fpbridge.runInTerminal(base + ["unlock"], keystrokes: [(.seconds(1), "12\u{03}")], timeout: 30)
        #expect(result.status == 1 && result.stdout.contains("userCancel -2"), "\(result.stdout)")
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(try await failures(base) == 0, "a cancel is not a wrong passcode")
    }

    @Test func emptyEntersAreNoGuesses() async throws {
        let base = try await setUp()
        let result = try await Fpbridge.runInTerminal(base + ["unlock"], keystrokes: [(.seconds(1), "\r"), (.milliseconds(300), "\r"),
                                                                                      (.milliseconds(300), "2468\r")], timeout: 30)
        #expect(result.status == 0, "\(result.stdout)")
        let wrong = try await Fpbridge.runInTerminal(base + ["unlock"], keystrokes: [(.seconds(1), "\r\r\r")], timeout: 30)
        #expect(wrong.status == 1 && wrong.stdout.contains("userCancel"), "\(wrong.stdout)")
        #expect(try await failures(base) == 0)
    }

    @Test func aPromptNobodyAnswersEndsAtItsTimeout() async throws {
        let base = try await setUp(timeout: 2)
        let start = Date()
        let terminal = try await Fpbridge.runInTerminal(base + ["unlock"], keystrokes: [], timeout: 30)
        #expect(terminal.status == 1 && terminal.stdout.contains("timedOut -2003"), "\(terminal.stdout)")
        // Standard input that stays open and never says anything.
        let silent = Pipe(), silentToo = Pipe()
        let stdin = try await Fpbridge.run(base + ["--json", "unlock", "--passcode-stdin"], timeout: 30, standardInput: silent)
        #expect(stdin.errorCode == -2003, "\(stdin.stdout)\(stdin.stderr)")
        let set = try await Fpbridge.run(base + ["--json", "passcode", "change", "--passcode-stdin"], timeout: 30, standardInput: silentToo)
        #expect(set.errorCode == -2003, "\(set.stdout)\(set.stderr)")
        #expect(Date().timeIntervalSince(start) < 25)
        try silent.fileHandleForWriting.close()
        try silentToo.fileHandleForWriting.close()
    }

    @Test func aProcessWaitingWithAPasscodeCannotDumpCore() async throws {
        let base = try await setUp()
        let pipe = Pipe()
        let pid = PIDBox()
        let running = Task {
            try await Fpbridge.run(base + ["unlock", "--passcode-stdin"], timeout: 30, standardInput: pipe, onStart: { pid.set($0) })
        }
        // Real time: the command must be waiting at its prompt, which shows nowhere but in its terminal; a read too early fails the test, never passes it.
        try await Task.sleep(for: .seconds(1))
        let limits = try String(contentsOfFile: "/proc/\(pid.value)/limits", encoding: .utf8)
        let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }.map(String.init) ?? ""
        #expect(core.split(separator: " ").dropFirst(4).prefix(2) == ["0", "0"], "\(core)")
        try pipe.fileHandleForWriting.write(contentsOf: Data("2468\n".utf8))
        try pipe.fileHandleForWriting.close()
        #expect(try await running.value.status == 0)
    }

    /// A process that is not dumpable has its /proc files handed to root, whoever it runs as.
    @Test(.enabled(if: geteuid() == 0, "needs root to run the child as nobody"))
    func aPasscodeHoldingProcessIsNotDumpable() async throws {
        let state = try directory.privateDirectory("nobody-state")
        let nobody = try #require(getpwnam("nobody"))
        chown(directory.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        chown(state, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        let launcher = ["/usr/bin/setpriv", "--reuid=\(nobody.pointee.pw_uid)", "--regid=\(nobody.pointee.pw_gid)", "--clear-groups"]
        let pipe = Pipe()
        let pid = PIDBox()
        let running = Task {
            try await Fpbridge.run(["--state-dir", state, "--user", "alice", "passcode", "set", "--passcode-stdin"],
                                   timeout: 30, launcher: launcher, standardInput: pipe, onStart: { pid.set($0) })
        }
        // Real time: setpriv must have exec'd fpbridge, which waits at its prompt; a look too early fails the test, never passes it.
        try await Task.sleep(for: .seconds(1.5))
        // setpriv execs fpbridge in the same process.
        var info = stat()
        #expect(stat("/proc/\(pid.value)/status", &info) == 0)
        let status = try String(contentsOfFile: "/proc/\(pid.value)/status", encoding: .utf8)
        #expect(status.contains("Uid:\t\(nobody.pointee.pw_uid)"), "the child runs as nobody")
        #expect(info.st_uid == 0, "a dumpable process's /proc entry would belong to nobody")
        try pipe.fileHandleForWriting.write(contentsOf: Data("2468\n".utf8))
        try pipe.fileHandleForWriting.close()
        let result = try await running.value
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func aCaptureNobodyAnswersEndsAtTheScanTimeout() async throws {
        let state = try directory.privateDirectory("state")
        try Data(#"{"scanTimeoutSeconds": 1}"#.utf8).write(to: URL(fileURLWithPath: state + "/config.json"))
        let script = directory.file("capture.txt")
        try "set features capture,verify\nwait 60000\nscan a\n".write(toFile: script, atomically: true, encoding: .utf8)
        let start = Date()
        let result = try await Fpbridge.run(["--json", "--state-dir", state, "--reader", "fake:" + script, "capture",
                                             "--out", directory.file("x.png")], timeout: 30)
        #expect(result.errorCode == -2003 && result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 20)
    }
}
