import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// fpbridge's own PAM module, `pam_fpbridge.so password-proved` (pam/), in a real PAM stack run
/// by `pamtester` under `libpam-wrapper` (a service directory of the test's own), with
/// `pam_matrix` for the password and fpbridged on libfprint's virtual_device behind fprintd's
/// face: the password lifts the lockout, for the user PAM authenticated and no other, and the
/// line never changes the stack's outcome.
@Suite(.serialized) struct PamModuleTests {
    /// The PAM service: an optional finger (`pam_fprintd`), the password, and the module's line
    /// reached only when the password succeeded, as docs/desktop.md gives it.
    struct Stack {
        let directory = TemporaryDirectory()

        /// - Parameters:
        ///   - socket: the module's `socket=`.
        ///   - finger: `pam_fprintd` first, as on a desktop.
        ///   - control: the module line's control (`optional` as documented; `required` shows
        ///     any answer but PAM_IGNORE in the outcome).
        ///   - arguments: more arguments for the module's line.
        ///   - witness: `pam_exec` runs `env` just before the module, into ``witnessLog``: what
        ///     the PAM environment held there.
        ///   - additional: the module's line after `pam_permit`, where `pam-auth-update` puts an
        ///     `Auth-Type: Additional` profile's (a finger reaches it too).
        init(module: String, socket: String, finger: Bool = false, control: String = "optional", arguments: String = "",
             witness: Bool = false, additional: Bool = false) throws {
            // The third user's name needs JSON's escapes, and fpbridged refuses it (no such name is valid).
            try "root:secret:fpbridge-test\nnobody:other:fpbridge-test\na\"b\\c:odd:fpbridge-test\n"
                .write(toFile: directory.file("passdb"), atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: directory.file("pam.d"), withIntermediateDirectories: true)
            var lines: [String] = []
            if finger {
                // A finger skips to pam_permit: over the password, pam_deny, the witness and the module.
                let skipped = 2 + (witness ? 1 : 0) + (additional ? 0 : 1)
                lines.append("auth\t[success=\(skipped) default=ignore]\t/lib/x86_64-linux-gnu/security/pam_fprintd.so max-tries=1 timeout=10")
            }
            lines.append("auth\t[success=1 default=ignore]\t/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so passdb=\(directory.file("passdb"))")
            lines.append("auth\trequisite\tpam_deny.so")
            if witness { lines.append("auth\toptional\tpam_exec.so quiet log=\(witnessLog) /usr/bin/env") }
            let line = "auth\t\(control)\t\(module) password-proved socket=\(socket) \(arguments)"
            if !additional { lines.append(line) }
            lines.append("auth\trequired\tpam_permit.so")
            if additional { lines.append(line) }
            lines.append("account\trequired\tpam_permit.so")
            try (lines.joined(separator: "\n") + "\n")
                .write(toFile: directory.file("pam.d/fpbridge-test"), atomically: true, encoding: .utf8)
        }

        var witnessLog: String { directory.file("witness.log") }

        /// One `pam_authenticate` for `user`, `password` typed at the prompt; `putenv` goes into
        /// the PAM environment first (pamtester's -E: `pam_putenv`, as an application may). With
        /// `bus`, on that bus, and `scans` go to the reader once the finger is asked for.
        func authenticate(_ user: String, password: String, putenv: [String] = [], bus: FprintdBus? = nil,
                          scans: [String] = []) async throws -> (status: Int32, output: String) {
            let options = putenv.map { "-E '\($0)' " }.joined()
            // Unbuffered: the finger prompt must be seen while pam_fprintd waits, not at the end.
            // One process (exec, the password from a here-document): the time limit's kill reaches pamtester.
            let command = "exec stdbuf -o0 pamtester -v \(options)fpbridge-test '\(user)' authenticate <<'END'\n\(password)\nEND\n"
            // pam_wrapper writes pam_syslog's lines to stderr (PWRAP_ERROR ... SYSLOG(3): ...).
            let wrapper = ["LD_PRELOAD=libpam_wrapper.so", "PAM_WRAPPER=1", "PAM_WRAPPER_DEBUGLEVEL=0",
                           "PAM_WRAPPER_SERVICE_DIR=\(directory.file("pam.d"))"]
            guard let bus else {
                // The 20 s limit is no performance check: a module that hangs a login is killed, and fails.
                let result = try await Fpbridge.runCommand(["/usr/bin/env"] + wrapper + ["/bin/sh", "-c", command],
                                                           environment: ProcessInfo.processInfo.environment, timeout: 20)
                return (result.status, result.stdout + result.stderr)
            }
            return try await bus.conversation(["/usr/bin/env"] + wrapper + ["/bin/sh", "-c", command],
                                              prompt: PamFprintdTests.fingerPrompt, scans: scans)
        }
    }

    func enroll(_ bus: FprintdBus, _ user: String, _ print: String) async throws {
        let result = try await bus.enroll(print: print, user: user)
        try #require(result.status == 0, "\(result.stdout)")
    }

    /// Five wrong fingers through fprintd's own verify tool: the user is locked out.
    func lockOut(_ bus: FprintdBus, _ user: String) async throws {
        for _ in 1...5 { _ = try await bus.withScans(["/usr/bin/fprintd-verify", user], after: "Verify started", scans: ["p2"]) }
        try #require(try await bus.lockout(user)["lockedOut"] as? Bool == true)
    }

    @Test func fiveWrongFingersLockAndOnlyTheRightPasswordLiftsTheLockout() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus, "root", "p1")
        let stack = try Stack(module: try await PamModule.path(), socket: bus.service!.socket, finger: true)

        for attempt in 1...5 {
            let wrong = try await stack.authenticate("root", password: "wrong", bus: bus, scans: ["p2"])
            #expect(wrong.status != 0 && wrong.output.contains("Failed to match fingerprint"), "attempt \(attempt): \(wrong.output)")
        }
        #expect(try await bus.lockout("root")["lockedOut"] as? Bool == true)

        // Locked out: straight to the password. A wrong one fails and lifts nothing.
        let wrong = try await stack.authenticate("root", password: "wrong", bus: bus)
        #expect(wrong.status != 0 && !wrong.output.contains(PamFprintdTests.fingerPrompt), "\(wrong.output)")
        let still = try await bus.lockout("root")
        #expect(still["lockedOut"] as? Bool == true && still["failures"] as? Int == 5, "\(still)")

        // The right one logs in, and the module's line lifts the lockout.
        let right = try await stack.authenticate("root", password: "secret", bus: bus)
        #expect(right.status == 0 && right.output.contains("successfully authenticated"), "\(right.output)")
        #expect(!right.output.contains("password-proved:"), "nothing to log: \(right.output)")
        let lifted = try await bus.lockout("root")
        #expect(lifted["lockedOut"] as? Bool == false && lifted["failures"] as? Int == 0, "\(lifted)")
        let finger = try await stack.authenticate("root", password: "unused", bus: bus, scans: ["p1"])
        #expect(finger.status == 0 && !finger.output.contains("Password:"), "the finger works again: \(finger.output)")
    }

    /// The hole issue 39 found in the `pam_exec` hook: a PAM environment naming another user
    /// (here by `pam_putenv`; a user's `~/.pam_environment` does it through `pam_env`). The
    /// module reads PAM's item, so root's password lifts root's lockout and never nobody's.
    @Test func aPamEnvironmentNamingAnotherUserLiftsOnlyTheAuthenticatedUsersLockout() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus, "root", "p1")
        try await enroll(bus, "nobody", "p7")
        try await lockOut(bus, "root")
        try await lockOut(bus, "nobody")
        let stack = try Stack(module: try await PamModule.path(), socket: bus.service!.socket, witness: true)

        let root = try await stack.authenticate("root", password: "secret", putenv: ["PAM_USER=nobody"], bus: bus)
        #expect(root.status == 0, "\(root.output)")
        let environment = (try? String(contentsOfFile: stack.witnessLog, encoding: .utf8)) ?? ""
        #expect(environment.contains("PAM_USER=nobody\n"), "the attack was made: the PAM environment named nobody: \(environment)")
        #expect(try await bus.lockout("root")["lockedOut"] as? Bool == false, "root's own lockout is lifted")
        #expect(try await bus.lockout("nobody")["lockedOut"] as? Bool == true, "nobody's is not")

        // And nobody's own password does lift nobody's: the line works for that user too.
        let nobody = try await stack.authenticate("nobody", password: "other", putenv: ["PAM_USER=root"], bus: bus)
        #expect(nobody.status == 0, "\(nobody.output)")
        #expect(try await bus.lockout("nobody")["lockedOut"] as? Bool == false)
    }

    /// `pam-auth-update` puts the line after the whole auth stack, where a finger arrives too: a
    /// finger is not the password (it would keep iOS's 156-hour rule from ever asking), so
    /// nothing is sent unless the password module read a password (PAM_AUTHTOK). The socket
    /// here is the test's own, which only records who connected.
    @Test func aFingerIsNotTakenForThePasswordWhereAFingerReachesTheLine() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus, "root", "p1")
        let sockets = TemporaryDirectory()
        let recorder = try SilentSocket(sockets.file("recorder.sock"))
        defer { recorder.close() }
        let stack = try Stack(module: try await PamModule.path(), socket: recorder.path, finger: true, additional: true)

        let finger = try await stack.authenticate("root", password: "unused", bus: bus, scans: ["p1"])
        #expect(finger.status == 0 && !finger.output.contains("Password:"), "\(finger.output)")
        #expect(recorder.pendingRequest() == nil, "a finger reported as the password")

        // A wrong finger, then the password: reported (and, the socket never answering, logged).
        let password = try await stack.authenticate("root", password: "secret", bus: bus, scans: ["p2"])
        #expect(password.status == 0 && password.output.contains("Password:"), "\(password.output)")
        let request = recorder.pendingRequest() ?? ""
        #expect(request.hasPrefix("POST /v1/password-proved HTTP/1.1\r\n")
                && request.hasSuffix(#"{"user":"root","pamService":"fpbridge-test"}"#), "\(request)")
    }

    /// fpbridged stopped, hung (a socket that takes the connection and never answers), or
    /// refusing: the password still logs in, the wrong one is still refused, and the log line
    /// says why. The line is `required` here, so that any answer but PAM_IGNORE would change
    /// the outcome.
    @Test func aServiceDownHungOrRefusingChangesNoOutcomeAndTheLogSaysWhy() async throws {
        let module = try await PamModule.path()
        let sockets = TemporaryDirectory()
        let down = try Stack(module: module, socket: sockets.file("none.sock"), control: "required",
                             arguments: "no-such-argument")
        let right = try await down.authenticate("root", password: "secret")
        #expect(right.status == 0 && right.output.contains("successfully authenticated"), "\(right.output)")
        #expect(right.output.contains("password-proved: fingerprint lockout of user \"root\" not lifted: cannot reach fpbridged at "
                                      + sockets.file("none.sock") + ": No such file or directory"), "\(right.output)")
        #expect(right.output.contains("unknown argument ignored: no-such-argument"), "\(right.output)")
        let wrong = try await down.authenticate("root", password: "wrong")
        #expect(wrong.status != 0 && wrong.output.contains("Authentication failure"), "\(wrong.output)")

        let silent = try SilentSocket(sockets.file("silent.sock"))
        defer { silent.close() }
        let hung = try Stack(module: module, socket: silent.path, control: "required")
        let answerless = try await hung.authenticate("root", password: "secret")
        #expect(answerless.status == 0 && answerless.output.contains("successfully authenticated"), "\(answerless.output)")
        #expect(answerless.output.contains("no answer from fpbridged at \(silent.path): no answer within 5 s"), "\(answerless.output)")

        // A name fpbridged refuses (400), sent as valid JSON: the refusal, not a parse error, is logged.
        let service = try await ServiceProcess()
        let refusing = try Stack(module: module, socket: service.socket, control: "required")
        let refused = try await refusing.authenticate(#"a"b\c"#, password: "odd")
        #expect(refused.status == 0 && refused.output.contains("successfully authenticated"), "\(refused.output)")
        #expect(refused.output.contains(#"fingerprint lockout of user "a\"b\\c" not lifted: fpbridged at \#(service.socket) refused it (HTTP 400): "#)
                && refused.output.contains(#"invalid user name 'a\"b\\c'"#), "\(refused.output)")
    }

    /// What sudo, su, sshd and polkit's helper load: the two PAM entry points exported and
    /// nothing else, libpam and libc linked and no Swift runtime, and (by the symbols it
    /// imports) no environment read and no process started. Its one thread and one signal,
    /// taken while touch or type's conversation prompt is up, are checked as given back by
    /// PamTouchOrTypeTests's host program.
    @Test func theModuleExportsOnlyPamEntryPointsAndLinksOnlyLibpamAndLibc() async throws {
        let module = try await PamModule.path()
        let environment = ProcessInfo.processInfo.environment
        let exported = try await Fpbridge.runCommand(["/usr/bin/nm", "-D", "--defined-only", module], environment: environment, timeout: 20)
        let names = exported.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(exported.status == 0 && names.sorted() == ["pam_sm_authenticate", "pam_sm_setcred"], "\(exported.stdout)\(exported.stderr)")

        let needed = try await Fpbridge.runCommand(["/usr/bin/readelf", "-d", module], environment: environment, timeout: 20)
        let libraries = needed.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
            .compactMap { $0.split(separator: "[").last?.dropLast() }.map(String.init)
        #expect(libraries.sorted() == ["libc.so.6", "libpam.so.0"], "\(needed.stdout)")
        let loaded = try await Fpbridge.runCommand(["/usr/bin/ldd", module], environment: environment, timeout: 20)
        #expect(loaded.status == 0 && !loaded.stdout.lowercased().contains("swift") && !loaded.stdout.contains("Foundation"),
                "\(loaded.stdout)")

        let imported = try await Fpbridge.runCommand(["/usr/bin/nm", "-D", "--undefined-only", module], environment: environment, timeout: 20)
        let symbols = Set(imported.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last?.split(separator: "@").first.map(String.init) })
        #expect(symbols.contains("pam_get_item"), "\(imported.stdout)")
        let forbidden: Set = ["getenv", "secure_getenv", "pam_getenv", "pam_getenvlist", "environ",
                              "signal", "fork", "vfork", "execve", "system", "popen", "pthread_detach"]
        #expect(symbols.isDisjoint(with: forbidden), "\(symbols.intersection(forbidden))")
    }
}

/// `pam_fpbridge.so`, built once per test process by scripts/build-pam-module.sh (cc, about a
/// second; scripts/test.sh builds it before the suites too).
enum PamModule {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let built = Task {
        try await Fpbridge.runCommand(["/bin/bash", packageRoot + "/scripts/build-pam-module.sh"],
                                      environment: ProcessInfo.processInfo.environment, timeout: 300)
    }

    static func path() async throws -> String {
        let result = try await built.value
        try #require(result.status == 0, "scripts/build-pam-module.sh: \(result.stdout)\(result.stderr)")
        return packageRoot + "/.build/pam/pam_fpbridge.so"
    }
}

/// A Unix socket that listens and never answers: a connection to it succeeds (the backlog)
/// and no answer ever comes, as from a hung fpbridged. The test may read what was sent.
struct SilentSocket {
    let path: String
    let fd: Int32

    init(_ path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(fd >= 0 && bound == 0 && listen(fd, 8) == 0, "cannot listen on \(path): errno \(errno)")
        // Non-blocking: pendingRequest() finds no connection instead of waiting for one.
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }

    /// What the oldest connection not yet taken sent (all of it once the client gave up and
    /// closed), or nil when no connection came.
    func pendingRequest() -> String? {
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return nil }
        defer { _ = Glibc.close(client) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let count = recv(client, &bytes, bytes.count, 0)
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }

    func close() { _ = Glibc.close(fd) }
}
