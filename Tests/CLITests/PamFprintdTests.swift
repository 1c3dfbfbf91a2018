import Foundation
import Testing
import TestSupport

/// Debian's own `pam_fprintd.so` (package libpam-fprintd) in a real PAM stack run by
/// `pamtester` under `libpam-wrapper` (a service directory of the test's own; the machine's PAM
/// configuration is not touched), against fpbridged's fprintd face: the desktop's login,
/// sudo and lock screens, with fpbridge's lockout below them and the password that lifts it
/// (`fpbridge pam-password-proved` from `pam_exec`). `pam_matrix` stands in for the password
/// database.
@Suite(.serialized) struct PamFprintdTests {
    static let fingerPrompt = "Swipe your finger across the fingerprint reader"

    /// A PAM service like Debian's common-auth with fingerprint and the hook: a finger skips
    /// the password; a password that succeeds runs the hook; anything else is refused.
    struct Stack {
        let directory = TemporaryDirectory()
        let bus: FprintdBus

        init(_ bus: FprintdBus) throws {
            self.bus = bus
            let socket = bus.service!.socket
            try "root:secret:fpbridge-test\nnobody:other:fpbridge-test\n"
                .write(toFile: directory.file("passdb"), atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: directory.file("pam.d"), withIntermediateDirectories: true)
            try """
            auth\t[success=3 default=ignore]\t/lib/x86_64-linux-gnu/security/pam_fprintd.so max-tries=1 timeout=10
            auth\t[success=1 default=ignore]\t/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so passdb=\(directory.file("passdb"))
            auth\trequisite\tpam_deny.so
            auth\toptional\tpam_exec.so quiet \(Fpbridge.executable) pam-password-proved --service \(socket)
            auth\trequired\tpam_permit.so
            account\trequired\tpam_permit.so

            """.write(toFile: directory.file("pam.d/fpbridge-test"), atomically: true, encoding: .utf8)
        }

        /// One PAM conversation for `user`: `scans` go to the reader once the finger is asked
        /// for; `password` answers the password prompt if it comes.
        func authenticate(_ user: String, password: String, scans: [String] = []) async throws -> (status: Int32, output: String) {
            // Unbuffered: the finger prompt must be seen while pam_fprintd waits, not at the end.
            let command = "printf '%s\\n' '\(password)' | stdbuf -o0 pamtester -v fpbridge-test \(user) authenticate"
            return try await bus.conversation(["/usr/bin/env", "LD_PRELOAD=libpam_wrapper.so", "PAM_WRAPPER=1",
                                               "PAM_WRAPPER_SERVICE_DIR=\(directory.file("pam.d"))", "/bin/sh", "-c", command],
                                              prompt: PamFprintdTests.fingerPrompt, scans: scans)
        }
    }

    func enroll(_ bus: FprintdBus, _ user: String, _ print: String) async throws {
        let result = try await bus.enroll(print: print, user: user)
        try #require(result.status == 0, "\(result.stdout)")
    }

    @Test func aFingerLogsInFiveWrongOnesLockItAndThePasswordLiftsTheLockout() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus, "root", "p1")
        try await enroll(bus, "nobody", "p7")
        let stack = try Stack(bus)

        let finger = try await stack.authenticate("root", password: "unused", scans: ["p1"])
        #expect(finger.status == 0 && finger.output.contains("successfully authenticated"), "\(finger.output)")
        #expect(!finger.output.contains("Password:"), "a finger needs no password: \(finger.output)")

        // Five conversations, each with a wrong finger and then a wrong password.
        for attempt in 1...5 {
            let wrong = try await stack.authenticate("root", password: "wrong", scans: ["p2"])
            #expect(wrong.status != 0, "attempt \(attempt): \(wrong.output)")
            #expect(wrong.output.contains("Failed to match fingerprint"), "attempt \(attempt): \(wrong.output)")
        }
        #expect(try await bus.lockout("root")["lockedOut"] as? Bool == true)

        // The sixth asks for no finger: straight to the password.
        let sixth = try await stack.authenticate("root", password: "wrong")
        #expect(sixth.status != 0 && !sixth.output.contains(Self.fingerPrompt), "\(sixth.output)")
        #expect(sixth.output.contains("Password:"), "\(sixth.output)")
        #expect(try await bus.lockout("root")["failures"] as? Int == 5, "nothing more was counted")

        // Another user is not affected.
        let other = try await stack.authenticate("nobody", password: "unused", scans: ["p7"])
        #expect(other.status == 0, "\(other.output)")

        // The right password logs in and lifts the lockout through the hook.
        let password = try await stack.authenticate("root", password: "secret")
        #expect(password.status == 0 && !password.output.contains(Self.fingerPrompt), "\(password.output)")
        let lifted = try await bus.lockout("root")
        #expect(lifted["lockedOut"] as? Bool == false && lifted["failures"] as? Int == 0, "\(lifted)")
        let again = try await stack.authenticate("root", password: "unused", scans: ["p1"])
        #expect(again.status == 0 && !again.output.contains("Password:"), "the finger works again: \(again.output)")
    }

    @Test func nobodyButRootMayReportAProvedPassword() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus, "nobody", "p7")
        for _ in 1...5 { _ = try await bus.withScans(["/usr/bin/fprintd-verify", "nobody"], after: "Verify started", scans: ["p2"]) }
        #expect(try await bus.lockout("nobody")["lockedOut"] as? Bool == true)
        let socket = bus.service!.socket
        // The user themselves, say, with PAM's variables set by hand.
        let copies = TemporaryDirectory()
        let forged = try await bus.run(["/usr/bin/env", "PAM_USER=nobody", "PAM_TYPE=auth", try Fpbridge.executableForOtherUsers(in: copies),
                                        "pam-password-proved", "--service", socket],
                                       launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(forged.status == 2 && forged.stderr.contains("only root may"), "\(forged.stdout)\(forged.stderr)")
        let answer = try await bus.service!.request("POST", "/v1/password-proved", body: #"{"user":"nobody"}"#,
                                                    launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(answer.status == 403 && answer.errorCode == -2013, "\(answer.body)")
        #expect(try await bus.lockout("nobody")["lockedOut"] as? Bool == true, "still locked out")

        // pam_exec passes on the PAM environment, which the user may fill (pam_env): where the
        // answer goes is never taken from it. Root, a state directory named only there:
        let chosen = TemporaryDirectory()
        let fromEnvironment = try await bus.run(["/usr/bin/env", "PAM_USER=nobody", "PAM_TYPE=auth",
                                                 "FPBRIDGE_STATE_DIR=\(try chosen.privateDirectory("state"))",
                                                 "FPBRIDGE_SERVICE=\(socket)", Fpbridge.executable, "pam-password-proved"])
        #expect(fromEnvironment.status != 0 && fromEnvironment.stderr.contains("/run/fpbridge/fpbridged.sock"),
                "the system socket, not the environment's: \(fromEnvironment.stdout)\(fromEnvironment.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: chosen.file("state")).isEmpty, "nothing written there")
        #expect(try await bus.lockout("nobody")["lockedOut"] as? Bool == true, "still locked out")
    }

    /// su, sudo and polkit's agent are setuid programs a user starts: pam_exec without `seteuid`
    /// starts the hook with the user's real uid and root's effective one, the kernel marks it
    /// `AT_SECURE`, and no environment is read. The hook says which option cures it instead of
    /// "PAM_USER is not set" (a booted Debian's `su` showed only "exit code 2"; issue 38).
    @Test func aHookStartedAsUnderSuWithoutSeteuidNamesTheOptionThatCuresIt() async throws {
        let copies = TemporaryDirectory()
        let setuidCopy = try Fpbridge.executableForOtherUsers(in: copies)
        chmod(setuidCopy, 0o4755)
        let started = try await Fpbridge.runCommand(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                                     "/usr/bin/env", "PAM_USER=nobody", "PAM_TYPE=auth", setuidCopy,
                                                     "pam-password-proved", "--service", "/nonexistent.sock"],
                                                    environment: [:], timeout: 30)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        #expect(started.stderr.contains("without pam_exec's seteuid option")
                && started.stderr.contains("pam_exec.so seteuid quiet /usr/bin/fpbridge pam-password-proved"), "\(started.stderr)")
    }

    /// pam_exec appends its PAM_USER after the PAM environment; one set earlier (pam_env from a
    /// user's file) would be the one getenv finds. Two are refused, and nothing is lifted.
    @Test func aSecondPamUserInTheEnvironmentIsRefused() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus, "nobody", "p7")
        for _ in 1...5 { _ = try await bus.withScans(["/usr/bin/fprintd-verify", "nobody"], after: "Verify started", scans: ["p2"]) }
        // execve with the same name twice, as pam_exec builds it (env(1) and Process keep one).
        let execve = """
        import ctypes, sys
        libc = ctypes.CDLL(None, use_errno=True)
        args = [a.encode() for a in sys.argv[1:]]
        env = [b"PAM_USER=nobody", b"PAM_TYPE=auth", b"PAM_USER=root"]
        argv = (ctypes.c_char_p * (len(args) + 1))(*args, None)
        envp = (ctypes.c_char_p * (len(env) + 1))(*env, None)
        libc.execve(args[0], argv, envp)
        sys.exit("execve failed: %d" % ctypes.get_errno())
        """
        let twice = try await bus.run(["/usr/bin/python3", "-c", execve, Fpbridge.executable, "pam-password-proved",
                                       "--service", bus.service!.socket])
        #expect(twice.status == 2 && twice.stderr.contains("PAM_USER is in the environment more than once"),
                "\(twice.stdout)\(twice.stderr)")
        #expect(try await bus.lockout("nobody")["lockedOut"] as? Bool == true, "still locked out")
    }
}
