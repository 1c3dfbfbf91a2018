import Foundation
import Testing
import TestSupport

/// Issue 41 §4: an attempt counter that could not be read (no permission, too many open files,
/// an I/O error) was reported as "damaged", its cause dropped. It now names the cause, and is
/// still locked out: a right passcode is not taken while its failures cannot be read.
@Suite(.serialized) struct UnreadableCounterTests {
    let directory = TemporaryDirectory()

    @Test func aCounterThatCannotBeReadNamesWhyAndAllowsNothing() async throws {
        // As root every file can be read: the check runs as nobody, who owns the state.
        let nobody = try #require(getpwnam("nobody"))
        let state = try directory.privateDirectory("nobody-state")
        chown(directory.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        chown(state, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        let launcher = ["/usr/bin/setpriv", "--reuid=\(nobody.pointee.pw_uid)", "--regid=\(nobody.pointee.pw_gid)", "--clear-groups"]
        let base = ["--json", "--state-dir", state, "--user", "alice", "--reader", "fake"]
        let set = try await Fpbridge.run(base + ["passcode", "set", "--passcode-stdin"], input: "2468\n", launcher: launcher)
        #expect(set.status == 0, "\(set.stdout)\(set.stderr)")

        let counters = try FileManager.default.contentsOfDirectory(atPath: state + "/counters").filter { $0.hasSuffix(".json") }
        #expect(!counters.isEmpty, "setting a passcode reserves its counter")
        var before: [String: Data] = [:]
        for name in counters {
            before[name] = try Data(contentsOf: URL(fileURLWithPath: state + "/counters/" + name))
            #expect(chmod(state + "/counters/" + name, 0) == 0)
        }

        let unlock = try await Fpbridge.run(base + ["unlock", "--passcode-stdin"], input: "2468\n", launcher: launcher)
        #expect(unlock.status != 0 && !unlock.ok, "a right passcode is not taken on a counter that cannot be read: \(unlock.stdout)")
        let message = ((unlock.json["error"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(message.contains("Permission denied"), "the cause is named: \(unlock.stdout)\(unlock.stderr)")
        #expect(!message.contains("damaged"), "an unreadable counter is not damaged: \(message)")

        let status = try await Fpbridge.run(base + ["status"], launcher: launcher)
        let biometry = status.json["biometry"] as? [String: Any]
        #expect(biometry?["lockedOut"] as? Bool == true, "still locked out: \(status.stdout)\(status.stderr)")
        #expect(biometry?["counterDamaged"] as? Bool == false, "and not called damaged: \(status.stdout)")

        // Nothing was written, and once the file reads again the same passcode is taken.
        for name in counters {
            #expect(chmod(state + "/counters/" + name, 0o600) == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: state + "/counters/" + name)) == before[name])
        }
        let again = try await Fpbridge.run(base + ["unlock", "--passcode-stdin"], input: "2468\n", launcher: launcher)
        #expect(again.status == 0 && again.ok, "\(again.stdout)\(again.stderr)")
    }
}
