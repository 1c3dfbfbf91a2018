import Foundation
import Testing
import TestSupport

/// Issue 27 §1 and §3: what a process started with more rights than its caller does with the
/// caller's environment, and a listing that fails on a decision path. Clients run as `nobody`.
@Suite(.serialized, .enabled(if: geteuid() == 0, "needs root to make a setuid program and to run as nobody"))
struct PrivilegeTests {
    let directory = TemporaryDirectory()
    let nobody = getpwnam("nobody")!.pointee

    /// A directory `nobody` owns (0700), reachable through the test's own.
    func nobodysDirectory(_ name: String) throws -> String {
        chmod(directory.path, 0o711)
        let path = try directory.privateDirectory(name)
        chown(path, nobody.pw_uid, nobody.pw_gid)
        return path
    }

    var asNobody: [String] { ["/usr/bin/setpriv", "--reuid=\(nobody.pw_uid)", "--regid=\(nobody.pw_gid)", "--clear-groups"] }

    /// A setuid-root program built on the library, run by nobody with FPBRIDGE_READER=fake and
    /// a state directory of nobody's: both are ignored, as glibc ignores its own variables there.
    @Test func aSetuidProgramIgnoresTheCallersFpbridgeVariables() async throws {
        let state = try nobodysDirectory("nobody-state")
        let setuid = directory.file("fpbridge-setuid")
        try FileManager.default.copyItem(atPath: Fpbridge.executable, toPath: setuid)
        chown(setuid, 0, 0)
        chmod(setuid, 0o4755)
        let launcher = asNobody + ["/bin/sh", "-c", "shift; exec '\(setuid)' \"$@\"", "sh"]
        let environment = ["FPBRIDGE_READER": "fake", "FPBRIDGE_STATE_DIR": state, "FPBRIDGE_SERVICE": "off"]
        let result = try await Fpbridge.run(["--json", "status"], environment: environment, launcher: launcher)
        let reader = result.json["reader"] as? [String: Any]
        #expect(result.ok, "\(result.stdout)\(result.stderr)")
        #expect(reader?["driver"] as? String != "fake", "the caller's fake reader was used: \(result.stdout)\(result.stderr)")
        // Its own (root's) state directory, from the user database, not the caller's variable.
        let rootHome = String(cString: getpwuid(0)!.pointee.pw_dir)
        #expect(result.json["stateDirectory"] as? String == rootHome + "/.local/state/fpbridge", "\(result.stdout)\(result.stderr)")
        // Nor may the caller choose them on the command line.
        for option in [["--reader", "fake"], ["--state-dir", state], ["--user", "alice"], ["--service", "off"]] {
            let refused = try await Fpbridge.run(option + ["status"], launcher: launcher)
            #expect(refused.status == 2 && refused.stderr.contains("\(option[0]) refused"), "\(refused.stdout)\(refused.stderr)")
        }
        // The same program without the setuid bit takes them, as the caller's own program should.
        chmod(setuid, 0o755)
        let plain = try await Fpbridge.run(["--json", "status"], environment: environment, launcher: launcher)
        #expect(plain.json["stateDirectory"] as? String == state, "\(plain.stdout)\(plain.stderr)")
        #expect((plain.json["reader"] as? [String: Any])?["driver"] as? String == "fake", "\(plain.stdout)")
    }

    /// `KeyRules.passcodeRemoved` decides which keys to invalidate from a directory listing: one
    /// that cannot be read must stop the removal, not read as "no keys".
    @Test func aKeysFolderThatCannotBeListedStopsThePasscodeRemoval() async throws {
        let state = try nobodysDirectory("keys-state")
        func run(_ arguments: [String], input: String = "") async throws -> CommandResult {
            try await Fpbridge.run(["--json", "--state-dir", state, "--reader", "fake", "--service", "off"] + arguments,
                                   input: input, launcher: asNobody)
        }
        #expect(try await run(["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        let made = try await run(["key", "create", "--label", "k", "--access-control", "device-passcode"])
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        let keys = state + "/keys/nobody"
        #expect(chmod(keys, 0o000) == 0)
        let removal = try await run(["passcode", "remove", "--passcode-stdin"], input: "2468\n")
        chmod(keys, 0o700)
        #expect(removal.status != 0 && removal.errorMessage.contains(keys), "\(removal.stdout)\(removal.stderr)")
        // Nothing changed: the passcode is set and the key still signs with it.
        let status = try await run(["status"])
        #expect((status.json["passcode"] as? [String: Any])?["set"] as? Bool == true, "\(status.stdout)")
        let signed = try await run(["key", "sign", "--label", "k", "--data-base64", "aGk=", "--passcode-stdin"], input: "2468\n")
        #expect(signed.status == 0, "\(signed.stdout)\(signed.stderr)")
    }
}
