import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `pam_fpbridge.so` touch or type (issue 39): the password or the finger at one prompt, in a
/// real PAM stack under `libpam-wrapper`, run by a small host program with Linux-PAM's
/// `misc_conv` (pam/host/pam_host.c, which also reports the threads, descriptors and signal
/// handling the stack left behind), fpbridged on libfprint's virtual_device behind fprintd's
/// face. The password module after the line is `pam_exec expose_authtok`, which takes a
/// password the module handed on (PAM_AUTHTOK) and asks `Password: ` only when none was.
@Suite(.serialized) struct PamTouchOrTypeTests {
    static let ownPrompt = "Password or finger: "
    static let passwordPrompt = "Password: "

    /// A service file: the module's line, the password, and the password-proved line after it.
    struct Stack {
        let directory = TemporaryDirectory()
        let service: String

        /// - Parameter passwordProved: the `password-proved` line after the password module.
        /// - Parameter seatless: `allow-seatless` on the module's line: presence is not asked.
        ///   The test process is in no logind session at no seat, so the tests of the prompts
        ///   turn presence off; PamPresenceTests judge presence itself (and turn it on).
        init(service: String, module: String, socket: String, arguments: String = "", passwordProved: Bool = true,
             seatless: Bool = true) throws {
            self.service = service
            let checker = directory.file("check-password")
            // The password module's judgement: root's is "secret" (pam_exec hands the token on
            // standard input, NUL-terminated).
            try "#!/bin/sh\np=$(tr -d '\\000')\n[ \"$PAM_USER:$p\" = root:secret ]\n"
                .write(toFile: checker, atomically: true, encoding: .utf8)
            _ = chmod(checker, 0o755)
            try FileManager.default.createDirectory(atPath: directory.file("pam.d"), withIntermediateDirectories: true)
            let lines = [
                "auth\t[success=done default=ignore]\t\(module) socket=\(socket) \(seatless ? "allow-seatless " : "")\(arguments)",
                "auth\t[success=1 default=ignore]\tpam_exec.so expose_authtok quiet \(checker)",
                "auth\trequisite\tpam_deny.so",
                passwordProved ? "auth\toptional\t\(module) password-proved socket=\(socket)" : "",
                "auth\trequired\tpam_permit.so",
                "account\trequired\tpam_permit.so",
            ].filter { !$0.isEmpty }
            try (lines.joined(separator: "\n") + "\n").write(toFile: directory.file("pam.d/\(service)"), atomically: true, encoding: .utf8)
        }

        /// Starts the host program for root. `arguments` are its command line (what the module
        /// reads of sudo's); `items` sets PAM_RHOST / PAM_TTY; `terminal` runs it on a
        /// pseudo-terminal of `script`'s (its controlling terminal, as sudo's is); `launcher`
        /// comes first (a process the host runs under).
        func start(arguments: [String] = [], items: [String: String] = [:], terminal: Bool = false,
                   launcher: [String] = [], environment: [String: String] = [:]) async throws -> (RunningClient, Pipe) {
            let host = try await PamHost.path()
            // PAM_WRAPPER_DEBUGLEVEL 4 in `environment` shows the module's syslog lines in the output.
            var variables = ["LD_PRELOAD": "libpam_wrapper.so", "PAM_WRAPPER": "1",
                             "PAM_WRAPPER_DEBUGLEVEL": environment["PAM_WRAPPER_DEBUGLEVEL"] ?? "0",
                             "PAM_WRAPPER_SERVICE_DIR": directory.file("pam.d"), "PAM_HOST_SERVICE": service,
                             "PAM_HOST_USER": "root"]
            if let rhost = items["rhost"] { variables["PAM_HOST_RHOST"] = rhost }
            if let tty = items["tty"] { variables["PAM_HOST_TTY"] = tty }
            var command = [host] + arguments
            if terminal {
                // script(1) gives the host a pseudo-terminal as its controlling terminal and
                // copies the test's pipe to it; -e: its exit status is the host's. `exec`: the
                // host replaces script's $SHELL -c, which dash (CI's /bin/sh) would otherwise
                // stay as, in the terminal's process group, to take a ^C for itself.
                command = ["/usr/bin/script", "-qfec", "exec " + command.joined(separator: " "), "/dev/null"]
            }
            let input = Pipe()
            let client = try RunningClient(launcher + ["/usr/bin/env"] + variables.map { "\($0)=\($1)" } + command,
                                           environment: environment, input: input)
            return (client, input)
        }
    }

    func enroll(_ bus: FprintdBus) async throws {
        let result = try await bus.enroll(print: "p1", user: "root")
        try #require(result.status == 0, "\(result.stdout)")
    }

    func type(_ input: Pipe, _ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Waits for the prompt, then touches. No wait between: the module puts its prompt up only
    /// once fpbridged said the reader waits for the finger (or after 2 s without a word, which
    /// these tests never reach), and virtual_device keeps a SCAN for the verify that reads it.
    func touch(_ bus: FprintdBus, _ client: RunningClient, _ print: String, after prompt: String = ownPrompt) async throws {
        try #require(try await client.waitFor(prompt, timeout: 15), "\(client.output)")
        try await bus.scan(print)
    }

    /// What the host reports after pam_authenticate: nothing of the module's left in it.
    func expectNothingLeftBehind(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in ["threads: unchanged", "descriptors: unchanged", "signal actions: unchanged", "signal mask: unchanged"] {
            #expect(output.contains(line), "\(line): \(output)", sourceLocation: sourceLocation)
        }
    }

    @Test func theFingerEndsSusConversationPromptAtOnceAndLeavesNothingBehind() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let stack = try Stack(service: "su", module: try await PamModule.path(), socket: bus.service!.socket)
        let (client, input) = try await stack.start()
        defer { try? input.fileHandleForWriting.close() }
        try await touch(bus, client, "p1")
        // The conversation's read was ended by the module: nothing typed, stdin still open.
        let status = try await client.finish(timeout: 20)
        #expect(status == 0 && client.output.contains("result: Success"), "\(client.output)")
        #expect(!client.output.contains(Self.passwordPrompt), "the password module never asked: \(client.output)")
        expectNothingLeftBehind(client.output)
        #expect(try await bus.lockout("root")["failures"] as? Int == 0)
    }

    @Test func aPasswordTypedWhileTheReaderWaitsIsHandedOnAndTheCancelledScanCountsNothing() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let stack = try Stack(service: "su", module: try await PamModule.path(), socket: bus.service!.socket)

        let (right, rightInput) = try await stack.start()
        try #require(try await right.waitFor(Self.ownPrompt, timeout: 15), "\(right.output)")
        type(rightInput, "secret\n")
        #expect(try await right.finish(timeout: 20) == 0 && right.output.contains("result: Success"), "\(right.output)")
        #expect(!right.output.contains(Self.passwordPrompt), "typed once, judged by the password module: \(right.output)")
        expectNothingLeftBehind(right.output)

        let (wrong, wrongInput) = try await stack.start()
        try #require(try await wrong.waitFor(Self.ownPrompt, timeout: 15), "\(wrong.output)")
        type(wrongInput, "not-it\n")
        #expect(try await wrong.finish(timeout: 20) == 1 && wrong.output.contains("result: Authentication failure"), "\(wrong.output)")
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "no scan finished, none counted")

        // The scans were cancelled, not left running: the reader takes the next one at once.
        let (finger, fingerInput) = try await stack.start()
        defer { try? fingerInput.fileHandleForWriting.close() }
        try await touch(bus, finger, "p1")
        #expect(try await finger.finish(timeout: 20) == 0 && finger.output.contains("result: Success"), "\(finger.output)")
    }

    /// A wrong finger is told beside the prompt, whose read goes on (issue 49): what was typed
    /// before the touch stays, so someone else's touch (or the user's palm) cannot turn a correct
    /// password into a failure (misc_conv flushes typed-ahead input when it asks again).
    @Test func aWrongFingerIsToldBesideThePromptAndWhatWasTypedBeforeItStays() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let stack = try Stack(service: "login", module: try await PamModule.path(), socket: bus.service!.socket)
        let (client, input) = try await stack.start(terminal: true)
        try #require(try await client.waitFor(Self.ownPrompt, timeout: 15), "\(client.output)")
        type(input, "sec")
        // Half the password must be in the terminal's line before the wrong finger: there is no
        // event for bytes reaching the line discipline, so a moment for script(1) to copy them.
        try await Task.sleep(for: .milliseconds(300))
        try await bus.scan("p2")
        try #require(try await client.waitFor("No match. Touch the reader again, or type the password.", timeout: 15), "\(client.output)")
        try #require(try await client.waitFor(count: 2, timeout: 15) { $0.components(separatedBy: Self.ownPrompt).count - 1 },
                     "the prompt again: \(client.output)")
        #expect(try await bus.lockout("root")["failures"] as? Int == 1, "the wrong finger counted once")
        type(input, "ret\n")
        #expect(try await client.finish(timeout: 20) == 0 && client.output.contains("result: Success"),
                "'sec' before the touch and 'ret' after it are one password: \(client.output)")
        expectNothingLeftBehind(client.output)
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "the password (password-proved) cleared the count")
    }

    @Test func aLockedOutUserGetsThePasswordPromptAloneWithOneLineSayingWhyAndThePasswordLiftsIt() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        for _ in 1...5 { _ = try await bus.withScans(["/usr/bin/fprintd-verify", "root"], after: "Verify started", scans: ["p2"]) }
        try #require(try await bus.lockout("root")["lockedOut"] as? Bool == true)
        let stack = try Stack(service: "su", module: try await PamModule.path(), socket: bus.service!.socket)

        let (client, input) = try await stack.start()
        try #require(try await client.waitFor(Self.passwordPrompt, timeout: 15), "\(client.output)")
        type(input, "secret\n")
        #expect(try await client.finish(timeout: 20) == 0, "\(client.output)")
        #expect(client.output.contains("Fingerprint locked: "), "one line says why: \(client.output)")
        #expect(!client.output.contains(Self.ownPrompt), "no finger offered: \(client.output)")
        let lifted = try await bus.lockout("root")
        #expect(lifted["lockedOut"] as? Bool == false && lifted["failures"] as? Int == 0, "\(lifted)")
    }

    /// sudo takes an interrupted conversation for ^C, so the module asks on the terminal itself
    /// (here script's pseudo-terminal): either wins at `[sudo] password or finger for root:`.
    @Test func sudoGetsTheTerminalPromptEitherWayAndScriptsGetNoFinger() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let stack = try Stack(service: "sudo", module: try await PamModule.path(), socket: bus.service!.socket)
        let prompt = "[sudo] password or finger for root: "

        let (finger, fingerInput) = try await stack.start(terminal: true)
        defer { try? fingerInput.fileHandleForWriting.close() }
        try await touch(bus, finger, "p1", after: prompt)
        #expect(try await finger.finish(timeout: 20) == 0 && finger.output.contains("result: Success"), "\(finger.output)")
        expectNothingLeftBehind(finger.output)

        let (typed, typedInput) = try await stack.start(terminal: true)
        try #require(try await typed.waitFor(prompt, timeout: 15), "\(typed.output)")
        type(typedInput, "secret\n")
        #expect(try await typed.finish(timeout: 20) == 0 && typed.output.contains("result: Success"), "\(typed.output)")
        #expect(!typed.output.contains(Self.passwordPrompt) && !typed.output.contains("secret"), "handed on, not echoed: \(typed.output)")
        expectNothingLeftBehind(typed.output)

        // ^C while sudo authenticates (sudo blocks SIGINT then; the host here blocks every
        // signal): the finger's prompt ends, the signal stays pending for the program, and the
        // password module asks (in sudo, its prompt unblocks the signal and sudo ends).
        let (interrupted, interruptedInput) = try await stack.start(terminal: true, environment: ["PAM_HOST_BLOCK_ALL": "1"])
        try #require(try await interrupted.waitFor(prompt, timeout: 15), "\(interrupted.output)")
        type(interruptedInput, "\u{03}")
        try #require(try await interrupted.waitFor(Self.passwordPrompt, timeout: 15), "^C ended the finger's prompt: \(interrupted.output)")
        type(interruptedInput, "secret\n")
        let interruptedStatus = try await interrupted.finish(timeout: 20)
        #expect(interruptedStatus == 0, "status \(interruptedStatus): \(interrupted.output)")

        // sudo -S (a script's password on standard input): no scan, the password module asks;
        // so too its long options as getopt_long reads them, abbreviated (--std is --stdin).
        for options in [["-S"], ["--std"], ["--stdin"], ["-u", "root", "--non"]] {
            let (script, scriptInput) = try await stack.start(arguments: options + ["true"], terminal: true)
            try #require(try await script.waitFor(Self.passwordPrompt, timeout: 15), "\(options): \(script.output)")
            type(scriptInput, "secret\n")
            #expect(try await script.finish(timeout: 20) == 0 && !script.output.contains("finger"), "\(options): \(script.output)")
        }
        #expect(try await bus.lockout("root")["failures"] as? Int == 0)
    }

    /// Nothing typed leaks (issue 49): a user starts typing the password, then touches; what
    /// was typed must not stay in the terminal for the command sudo or su runs next (a root
    /// shell's `sudo -s` ran it and kept it in its history). The host reads the terminal after
    /// pam_authenticate as that command would.
    @Test func whatWasTypedBeforeTheTouchIsThrownAwayAtSudosAndSusPrompts() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let module = try await PamModule.path()
        for (service, prompt) in [("sudo", "[sudo] password or finger for root: "), ("su", Self.ownPrompt)] {
            let stack = try Stack(service: service, module: module, socket: bus.service!.socket)
            let (client, input) = try await stack.start(terminal: true, environment: ["PAM_HOST_READ_AFTER": "1"])
            defer { try? input.fileHandleForWriting.close() }
            try #require(try await client.waitFor(prompt, timeout: 15), "\(service): \(client.output)")
            type(input, "alice-p")
            // The bytes must be in the terminal's line before the touch: there is no event for
            // their reaching the line discipline, so a moment for script(1) to copy them.
            try await Task.sleep(for: .milliseconds(300))
            try await bus.scan("p1")
            #expect(try await client.finish(timeout: 20) == 0 && client.output.contains("result: Success"), "\(service): \(client.output)")
            #expect(client.output.contains("typed and left: 0 bytes"), "\(service): the next command would read it: \(client.output)")
        }
    }

    /// A touch goes to the prompt the person sees (issue 49): while the reader is held for
    /// another request (here a desktop's verify through fprintd's face), the prompt offers no
    /// finger and says why; the password alone is asked, and the other request keeps its scan.
    @Test func aReaderHeldForAnotherRequestOffersNoFingerAndSaysSo() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let holder = try bus.start(["/usr/bin/fprintd-verify", "root"])
        defer { holder.kill() }
        try #require(try await holder.waitFor("Verify started", timeout: 20), "\(holder.output)")
        let stack = try Stack(service: "su", module: try await PamModule.path(), socket: bus.service!.socket)
        let (client, input) = try await stack.start()
        defer { try? input.fileHandleForWriting.close() }
        try #require(try await client.waitFor(Self.passwordPrompt, timeout: 15), "\(client.output)")
        #expect(client.output.contains("The fingerprint reader is busy with another request: type the password."), "\(client.output)")
        #expect(!client.output.contains(Self.ownPrompt), "no finger offered: \(client.output)")
        type(input, "secret\n")
        #expect(try await client.finish(timeout: 20) == 0 && client.output.contains("result: Success"), "\(client.output)")

        // PAM_SILENT (sudo's default): nothing through the conversation (su's is silent), while
        // the lines of the terminal prompt the module writes itself are that prompt's (sudo's).
        let busy = "The fingerprint reader is busy with another request"
        for (service, terminal, told) in [("su", false, false), ("sudo", true, true)] {
            let quiet = try Stack(service: service, module: try await PamModule.path(), socket: bus.service!.socket)
            let (silent, silentInput) = try await quiet.start(terminal: terminal, environment: ["PAM_HOST_SILENT": "1"])
            defer { try? silentInput.fileHandleForWriting.close() }
            try #require(try await silent.waitFor(Self.passwordPrompt, timeout: 15), "\(service): \(silent.output)")
            type(silentInput, "secret\n")
            #expect(try await silent.finish(timeout: 20) == 0, "\(service): \(silent.output)")
            #expect(silent.output.contains(busy) == told, "\(service), PAM_SILENT: \(silent.output)")
        }
        // The other request still has the reader: its scan is its own.
        try await bus.scan("p1")
        #expect(try await holder.waitFor("verify-match", timeout: 20), "\(holder.output)")
    }

    /// Echo stays off while sudo's prompt is up whatever turns it back on (after ^Z and fg the
    /// shell has put its own modes back): here another process turns it on, and the password
    /// typed after is not shown. The terminal is put back exactly as it was at the end.
    @Test func echoTurnedBackOnWhileTheTerminalPromptIsUpIsTurnedOffAgain() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let stack = try Stack(service: "sudo", module: try await PamModule.path(), socket: bus.service!.socket)
        let (client, input) = try await stack.start(terminal: true, environment: ["PAM_HOST_SHOW_TTY": "1"])
        defer { try? input.fileHandleForWriting.close() }
        try #require(try await client.waitFor("[sudo] password or finger for root: ", timeout: 15), "\(client.output)")
        // Read by scalars: on a terminal a line ends in "\r\n", one Character to Swift.
        let named = client.output.unicodeScalars.split { $0 == "\r" || $0 == "\n" }.map { String(String.UnicodeScalarView($0)) }
        let path = try #require(named.first { $0.hasPrefix("terminal: /dev/") }?.dropFirst(10), "\(client.output)")
        let turned = try await Fpbridge.runCommand(["/bin/stty", "-F", String(path), "echo"], environment: [:], timeout: 10)
        try #require(turned.status == 0, "\(turned.stderr)")
        // The module looks at the terminal's modes every 100 ms; nothing says when it has.
        try await Task.sleep(for: .milliseconds(400))
        type(input, "secret\n")
        #expect(try await client.finish(timeout: 20) == 0 && client.output.contains("result: Success"), "\(client.output)")
        #expect(!client.output.contains("secret"), "the password was shown: \(client.output)")
    }

    /// sudo's terminal prompt gives up as sudo's own does (passwd_timeout; here
    /// `password-timeout=2`): then the program's own prompt is asked and interrupted, which ends
    /// sudo. This host blocks every signal, so its conversation simply asks the password.
    @Test func sudosTerminalPromptGivesUpAfterItsPasswordTimeout() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let stack = try Stack(service: "sudo", module: try await PamModule.path(), socket: bus.service!.socket,
                              arguments: "password-timeout=2")
        let (client, input) = try await stack.start(terminal: true, environment: ["PAM_HOST_BLOCK_ALL": "1"])
        defer { try? input.fileHandleForWriting.close() }
        try #require(try await client.waitFor("[sudo] password or finger for root: ", timeout: 15), "\(client.output)")
        try #require(try await client.waitFor(Self.passwordPrompt, timeout: 15), "the prompt gave up: \(client.output)")
        type(input, "secret\n")
        #expect(try await client.finish(timeout: 20) == 0 && client.output.contains("result: Success"), "\(client.output)")
        expectNothingLeftBehind(client.output)
    }

    /// A host that blocks every signal (one handling its own by signalfd, say) lends none: the
    /// module leaves its mask and handlers alone and gives the finger first, then the password.
    @Test func aHostBlockingEverySignalGetsTheFingerThenThePasswordAndKeepsItsSignals() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let stack = try Stack(service: "su", module: try await PamModule.path(), socket: bus.service!.socket)
        let (client, input) = try await stack.start(environment: ["PAM_HOST_BLOCK_ALL": "1"])
        defer { try? input.fileHandleForWriting.close() }
        try await touch(bus, client, "p1", after: "Touch the fingerprint reader")
        #expect(try await client.finish(timeout: 20) == 0 && client.output.contains("result: Success"), "\(client.output)")
        #expect(!client.output.contains(Self.ownPrompt), "\(client.output)")
        expectNothingLeftBehind(client.output)
    }

    /// A program the module does not know gets the finger first, then the password, as
    /// `pam_fprintd` gives it.
    @Test func anUnknownProgramGetsTheFingerThenThePassword() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let stack = try Stack(service: "some-greeter", module: try await PamModule.path(), socket: bus.service!.socket,
                              arguments: "timeout=2")
        let (finger, fingerInput) = try await stack.start()
        defer { try? fingerInput.fileHandleForWriting.close() }
        try await touch(bus, finger, "p1", after: "Touch the fingerprint reader")
        #expect(try await finger.finish(timeout: 20) == 0 && !finger.output.contains(Self.passwordPrompt), "\(finger.output)")

        // No finger within the 2 s: the password module asks.
        let (late, lateInput) = try await stack.start()
        try #require(try await late.waitFor(Self.passwordPrompt, timeout: 15), "\(late.output)")
        type(lateInput, "secret\n")
        #expect(try await late.finish(timeout: 20) == 0, "\(late.output)")
    }

    /// Nobody there, no finger: the module does not even connect (the socket here only records
    /// connections), and each rule's `allow-` argument lets the request through to it.
    @Test func remoteRequestsStartNoScanUnlessTheirRuleIsTurnedOff() async throws {
        let module = try await PamModule.path()
        let sockets = TemporaryDirectory()
        let recorder = try SilentSocket(sockets.file("recorder.sock"))
        defer { recorder.close() }
        // A copy of sh named sshd, which the host runs under: sshd among its ancestors.
        let sshd = sockets.file("sshd")
        try FileManager.default.copyItem(atPath: "/usr/bin/dash", toPath: sshd)

        let cases: [(rule: String, items: [String: String], launcher: [String])] = [
            ("allow-rhost", ["rhost": "203.0.113.9"], []),
            ("allow-ssh", ["tty": "ssh"], []),
            ("allow-ssh", [:], [sshd, "-c", "\"$0\" \"$@\"; exit $?"]),
        ]
        for (rule, items, launcher) in cases {
            let refused = try Stack(service: "su", module: module, socket: recorder.path, passwordProved: false)
            let (client, input) = try await refused.start(items: items, launcher: launcher)
            try #require(try await client.waitFor(Self.passwordPrompt, timeout: 15), "\(rule) \(items): \(client.output)")
            type(input, "secret\n")
            #expect(try await client.finish(timeout: 20) == 0 && !client.output.contains(Self.ownPrompt), "\(client.output)")
            #expect(recorder.pendingRequest() == nil, "\(rule) \(items): the module asked fpbridged for a scan")

            let allowed = try Stack(service: "su", module: module, socket: recorder.path, arguments: rule, passwordProved: false)
            let (through, throughInput) = try await allowed.start(items: items, launcher: launcher)
            // The recorder never answers: after its 5 s the module leaves the password to the next module.
            try #require(try await through.waitFor(Self.passwordPrompt, timeout: 15), "\(rule) \(items): \(through.output)")
            type(throughInput, "secret\n")
            #expect(try await through.finish(timeout: 20) == 0, "\(through.output)")
            let request = recorder.pendingRequest() ?? ""
            #expect(request.hasPrefix("POST /v1/evaluations HTTP/1.1\r\n") && request.contains(#""operation":"verify","user":"root""#),
                    "\(rule) \(items): \(request)")
        }
    }
}

/// pam/host/pam_host.c, built once per test process with cc (well under a second).
enum PamHost {
    /// Kept for the test process's life: the binary is run by every test of the suite.
    static let directory = TemporaryDirectory()
    static let built = Task { () throws -> String in
        let output = directory.file("pam_host")
        let result = try await Fpbridge.runCommand(
            ["/usr/bin/cc", "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror", "-o", output,
             PamModule.packageRoot + "/pam/host/pam_host.c", "-lpam", "-lpam_misc"],
            environment: ProcessInfo.processInfo.environment, timeout: 120)
        try #require(result.status == 0, "cc pam_host.c: \(result.stdout)\(result.stderr)")
        return output
    }

    static func path() async throws -> String { try await built.value }
}
