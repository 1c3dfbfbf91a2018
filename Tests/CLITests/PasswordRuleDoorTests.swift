import Foundation
import Testing
import TestSupport

/// Issue 39: iOS's rules through the doors other than the engine's own API: fprintd's D-Bus
/// face refuses VerifyStart as it refuses the five-failure lockout, naming the rule; the socket's
/// `lock` is root's and the user's own; `fpbridge status` says which rule applies; fpbridged in
/// system mode has the rules on by default, in test mode off.
@Suite(.serialized, .enabled(if: geteuid() == 0, "runs clients as nobody")) struct PasswordRuleDoorTests {
    static let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    func verify(_ bus: FprintdBus, _ print: String, user: String = "root") async throws -> CommandResult {
        try await bus.withScans(["/usr/bin/fprintd-verify", user], after: "Verify started", scans: [print])
    }

    func rule(_ bus: FprintdBus, _ user: String = "root") async throws -> String? {
        try await bus.lockout(user)["passwordRule"] as? String
    }

    @Test func dbusRefusesVerifyStartNamingTheRuleUntilThePasswordAndCountsNothing() async throws {
        let bus = try await FprintdBus()
        let service = try #require(bus.service)
        try #require(try await bus.enroll().status == 0)
        try #require(try await bus.enroll(print: "p7", user: "nobody").status == 0)
        #expect(try await verify(bus, "p1").status == 0, "test mode: the time rules are off")

        // The remote lock: nobody may not lock root, but may lock itself; root locks root with the CLI.
        let foreign = try await service.request("POST", "/v1/lock", body: #"{"user":"root"}"#, launcher: Self.asNobody)
        #expect(foreign.status == 403 && foreign.errorCode == -2013, "\(foreign.body)")
        let own = try await service.request("POST", "/v1/lock", body: "{}", launcher: Self.asNobody)
        #expect(own.status == 200 && own.json["user"] as? String == "nobody", "\(own.body)")
        let locked = try await Fpbridge.run(["--json", "lock"], environment: service.clientEnvironment)
        #expect(locked.status == 0 && locked.json["user"] as? String == "root", "\(locked.stdout)\(locked.stderr)")
        #expect(try await rule(bus) == "remoteLock")
        #expect(try await rule(bus, "nobody") == "remoteLock")

        let start = Date()
        let refused = try await bus.run(["/usr/bin/fprintd-verify", "root"], timeout: 20)
        #expect(refused.status == 1 && refused.stdout.contains(
            "NoEnrolledPrints: Fingerprint: biometry needs the password first for user root (rule remoteLock): "), "\(refused.stdout)")
        #expect(refused.stdout.contains("it was locked with fpbridge lock"), "\(refused.stdout)")
        #expect(Date().timeIntervalSince(start) < 10, "refused at once, without a scan")
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "a refusal counts nothing")
        try await bus.restartService()
        #expect(try await rule(bus) == "remoteLock", "the lock outlives the service process")

        // The password, as the PAM hook reports it, lifts it.
        let proved = try await bus.run(["/usr/bin/env", "PAM_USER=root", "PAM_TYPE=auth", Fpbridge.executable,
                                        "pam-password-proved", "--service", bus.service!.socket])
        #expect(proved.status == 0, "\(proved.stdout)\(proved.stderr)")
        #expect(try await rule(bus) == nil)
        #expect(try await verify(bus, "p1").status == 0)
        #expect(try await rule(bus, "nobody") == "remoteLock", "nobody's lock is nobody's")

        // The boot rule, on in config.json: nothing recorded the password in this boot (a test-mode
        // service kept no moment while the rules were off), so the finger waits for it.
        try Data(#"{"passwordAfterBoot": true}"#.utf8).write(to: URL(fileURLWithPath: bus.service!.stateDirectory + "/config.json"))
        let booted = try await bus.run(["/usr/bin/fprintd-verify", "root"], timeout: 20)
        #expect(booted.status == 1 && booted.stdout.contains("NoEnrolledPrints: Fingerprint: biometry needs the password first for user root (rule boot): ")
                && booted.stdout.contains("no password or passcode has been recorded since this machine started"), "\(booted.stdout)")
        _ = try await bus.run(["/usr/bin/env", "PAM_USER=root", "PAM_TYPE=auth", Fpbridge.executable,
                               "pam-password-proved", "--service", bus.service!.socket])
        let after = try await verify(bus, "p1")
        #expect(after.status == 0 && after.stdout.contains("verify-match"), "\(after.stdout)")
    }

    /// Issue 51: in a container the kernel's boot id never changes at the container's reboot,
    /// and the service's own /proc (ProtectProc=) shows only the kernel's; the unit passes
    /// systemd's `%b` as `--boot-id`. Two boot ids given to two runs of the service on one
    /// state are two boots: the password given in the first is asked again in the second, and
    /// not again when the first boot's id comes back (as the kernel's would within one boot).
    @Test func theBootIDTheServiceManagerGivesDecidesTheBootRule() async throws {
        let directory = TemporaryDirectory()
        let state = try directory.privateDirectory("state")
        try Data(#"{"passwordAfterBoot": true}"#.utf8).write(to: URL(fileURLWithPath: state + "/config.json"))
        func rule(bootID: String, password: Bool = false) async throws -> Any? {
            let service = try await ServiceProcess(arguments: ["--boot-id", bootID], stateDirectory: state)
            defer { service.stop() }
            if password {
                let proved = try await service.request("POST", "/v1/password-proved", body: #"{"user":"root"}"#)
                #expect(proved.status == 200, "\(proved.body)")
            }
            let status = try await Fpbridge.run(["--json", "status"], environment: service.clientEnvironment)
            return (status.json["password"] as? [String: Any])?["rule"] ?? "no password in \(status.stdout)"
        }
        let first = "0f2b8c5e7d2a4c1b9e8f6a5b4c3d2e1f", second = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
        #expect(try await rule(bootID: first, password: true) is NSNull, "the password was given in this boot")
        #expect(try await rule(bootID: second) as? String == "boot", "another boot id is another boot")
        #expect(try await rule(bootID: second, password: true) is NSNull)
        #expect(try await rule(bootID: "9A8B7C6D5E4F4A3B8C2D1E0F9A8B7C6D") is NSNull, "systemd's form of the same id is the same boot")
        let refused = try await ServiceProcess.runToEnd(["--test-mode", "--state-dir", state, "--boot-id", "not a boot id"])
        #expect(refused.status != 0 && refused.stderr.contains("--boot-id 'not a boot id' is not a boot id"), "\(refused.stderr)")
        // The environment is not read: pam_exec hands programs a PAM environment a user can fill.
        let service = try await ServiceProcess(environment: ["FPBRIDGE_BOOT_ID": first], stateDirectory: state)
        let status = try await Fpbridge.run(["--json", "status"], environment: service.clientEnvironment.merging(["FPBRIDGE_BOOT_ID": first]) { $1 })
        service.stop()
        #expect((status.json["password"] as? [String: Any])?["rule"] as? String == "boot", "the kernel's id, not the environment's: \(status.stdout)")
    }

    @Test func aSystemModeServiceHasTheRulesOnAndStatusSaysWhichAndWhenTheyEnd() async throws {
        let directory = TemporaryDirectory()
        let state = try directory.privateDirectory("state")
        let system = try await ServiceProcess(arguments: ["--reader", "auto"], testMode: false, stateDirectory: state)
        let text = try await Fpbridge.run(["status"], environment: system.clientEnvironment)
        #expect(text.status == 0 && text.stdout.contains("password: needed before the next finger (rule: boot); "
                                                         + "this ends when the password or passcode is given"), "\(text.stdout)")
        let json = try await Fpbridge.run(["--json", "status"], environment: system.clientEnvironment)
        let password = json.json["password"] as? [String: Any]
        #expect(password?["rule"] as? String == "boot" && password?["endsWith"] as? String == "password or passcode", "\(json.stdout)")
        let nobodyLocksRoot = try await system.request("POST", "/v1/lock", body: #"{"user":"root"}"#, launcher: Self.asNobody)
        #expect(nobodyLocksRoot.status == 403 && nobodyLocksRoot.errorCode == -2013
                && nobodyLocksRoot.body.contains("only root or the user themselves may"), "\(nobodyLocksRoot.body)")
        system.stop()

        // Test mode, the same state: off unless config.json says otherwise.
        let test = try await ServiceProcess(stateDirectory: state)
        let off = try await Fpbridge.run(["--json", "status"], environment: test.clientEnvironment)
        #expect((off.json["password"] as? [String: Any])?["rule"] is NSNull, "\(off.stdout)")
        try Data(#"{"passwordAfterIdle": true}"#.utf8).write(to: URL(fileURLWithPath: state + "/config.json"))
        let idle = try await Fpbridge.run(["status"], environment: test.clientEnvironment)
        #expect(idle.stdout.contains("(rule: idle)"), "\(idle.stdout)")
        _ = try await test.request("POST", "/v1/password-proved", body: #"{"user":"root"}"#)
        let timed = try await Fpbridge.run(["--json", "status"], environment: test.clientEnvironment)
        let neededIn = (timed.json["password"] as? [String: Any])?["neededInSeconds"] as? Double
        #expect(neededIn.map { $0 > 47.9 * 3600 && $0 <= 48 * 3600 } == true, "\(timed.stdout)")
        let timedText = try await Fpbridge.run(["status"], environment: test.clientEnvironment)
        #expect(timedText.stdout.contains("password: not needed now; a timed rule asks for it in 47 h 59 min"), "\(timedText.stdout)")

        // In-process, on a developer's own state: the same command, the lock in its own files.
        let own = try directory.privateDirectory("own")
        let lock = try await Fpbridge.run(["--json", "--service", "off", "--state-dir", own, "--user", "alice", "lock"])
        #expect(lock.status == 0, "\(lock.stdout)\(lock.stderr)")
        let locked = try await Fpbridge.run(["--json", "--service", "off", "--state-dir", own, "--user", "alice", "status"])
        #expect((locked.json["password"] as? [String: Any])?["rule"] as? String == "remoteLock"
                && (locked.json["biometry"] as? [String: Any])?["lockedOut"] as? Bool == true, "\(locked.stdout)")
    }
}
