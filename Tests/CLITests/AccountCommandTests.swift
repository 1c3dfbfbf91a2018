import Foundation
import Testing
import TestSupport

/// `fpbridge account` against a real `fpbridge-server`, with the keys in-process (development
/// mode, which the server must be told to accept) or in a real `fpbridged`, on the fake
/// reader and on `virtual_device`: the seeds' login and payment, end to end.
@Suite struct AccountCommandTests {
    static let password = "correct horse battery\n"

    @Test(arguments: Backend.allCases)
    func bindLogInPayThenANewFingerInvalidatesTheKeyUntilBoundAgain(backend: Backend) async throws {
        let bench = try await Bench(backend)
        let server = try await LoginServerProcess(arguments: backend.throughService ? [] : ["--accept-development-keys"])
        let account = ["--server", server.address, "--account", "alice"]
        try await bench.enroll("right-index", id: "alice-1")

        #expect(try await bench.run(["account", "register", "--password-stdin"] + account, input: Self.password).ok)
        let bound = try await bench.run(["account", "bind", "--password-stdin", "--device-name", "desk"] + account, input: Self.password)
        #expect(bound.ok, "bind: \(bound.stdout)\(bound.stderr)")
        let device = try #require(bound.json["device"] as? [String: Any])
        #expect(device["protection"] as? String == (backend.throughService ? "service" : "development"))
        #expect(device["accessControl"] as? String == "biometryCurrentSet")

        let login = try await bench.run(["account", "login"] + account, touches: [.finger("alice-1")])
        #expect(login.ok && login.json["kind"] as? String == "fingerprint", "login: \(login.stdout)\(login.stderr)")
        let token = try #require(login.json["token"] as? String)

        let paid = try await bench.run(["account", "pay", "--amount", "12.5", "--currency", "EUR", "--payee", "Coffee Shop",
                                        "--token-stdin"] + account, touches: [.finger("alice-1")], input: token + "\n")
        #expect(paid.ok && paid.json["status"] as? String == "confirmed" && paid.json["amount"] as? String == "12.50")
        #expect(paid.stderr.contains("Pay 12.50 EUR to Coffee Shop"), "the prompt shows amount and payee: \(paid.stderr)")

        // Wrong fingers: the device refuses, nothing is signed, the server records no login.
        let wrong = try await bench.run(["account", "login"] + account, touches: Array(repeating: .finger("mallory-1"), count: 3))
        #expect(wrong.status == 1 && wrong.errorCode == -1, "\(wrong.stdout)\(wrong.stderr)")

        // Another finger enrolled: the key bound to the old set is invalidated for good.
        // right-middle: verify-only readers (virtual_device) compare with the first print, right-index.
        try await bench.enroll("right-middle", id: "eve-1")
        // Refused before any scan: no touch is played.
        let invalidated = try await bench.run(["account", "login"] + account)
        #expect(invalidated.status == 3 && invalidated.errorCode == -2012, "\(invalidated.stdout)")
        #expect(invalidated.errorMessage.contains("log in with the password and bind again"))

        let rebound = try await bench.run(["account", "bind", "--password-stdin"] + account, input: Self.password)
        #expect(rebound.ok && (rebound.json["device"] as? [String: Any])?["deviceId"] as? String == device["deviceId"] as? String)
        let again = try await bench.run(["account", "login"] + account, touches: [.finger("alice-1")])
        #expect(again.ok, "login after binding again: \(again.stdout)\(again.stderr)")

        let audit = try await bench.run(["account", "audit", "--token-stdin"] + account, input: token + "\n")
        let events = (audit.json["entries"] as? [[String: Any]] ?? []).map { "\($0["event"] as? String ?? "") \($0["outcome"] as? String ?? "")" }
        #expect(events.filter { $0 == "fingerprint-login ok" }.count == 2)
        #expect(events.contains("payment ok") && events.filter { $0 == "bind ok" }.count == 2)
    }

    @Test func theLoginDemoTellsTheWholeStory() async throws {
        let result = try await Fpbridge.run(["demo", "login", "--json"], timeout: 120)
        #expect(result.ok, "\(result.stdout)\(result.stderr)")
        let steps = (result.json["steps"] as? [[String: Any]] ?? []).map { step -> String in
            let name = step["step"] as? String ?? "?"
            return step["ok"] as? Bool == true ? name : "\(name): \(step["name"] as? String ?? "?")"
        }
        #expect(steps == ["enroll", "register", "bind", "login", "pay", "laptop-bind", "approve-laptop", "laptop-login",
                          "mallory-bind: deviceNotVouched", "login-wrong-finger: authenticationFailed",
                          "login-lockout: biometryLockout", "login-while-locked: biometryLockout", "passcode", "login-after-passcode",
                          "login-after-new-finger: keyInvalidated", "bind-again", "login-after-rebinding"])
    }

    /// Two fake-reader benches with alice's finger, a server (development keys accepted) where
    /// alice registered and bound the desk; the laptop is not bound.
    static func deskBoundLaptopNot() async throws -> (desk: Bench, laptop: Bench, server: LoginServerProcess) {
        let desk = try await Bench(.fake)
        let laptop = try await Bench(.fake)
        let server = try await LoginServerProcess(arguments: ["--accept-development-keys"])
        let account = ["--server", server.address, "--account", "alice"]
        try await desk.enroll("right-index", id: "alice-1")
        try await laptop.enroll("right-index", id: "alice-1")
        #expect(try await desk.run(["account", "register", "--password-stdin"] + account, input: Self.password).ok)
        #expect(try await desk.run(["account", "bind", "--password-stdin", "--device-name", "desk"] + account, input: Self.password).ok)
        return (desk, laptop, server)
    }

    /// Issue 28: a second device is bound only with a bound device's fingerprint approval,
    /// which names it; the password alone leaves it waiting.
    @Test func aSecondDeviceIsBoundWhenTheFirstApprovesItWithAFinger() async throws {
        let (desk, laptop, server) = try await Self.deskBoundLaptopNot()
        let account = ["--server", server.address, "--account", "alice"]

        let waiting = try await laptop.run(["account", "bind", "--password-stdin", "--device-name", "laptop", "--no-wait"] + account,
                                           input: Self.password)
        #expect(waiting.ok && waiting.json["status"] as? String == "pending", "\(waiting.stdout)\(waiting.stderr)")
        let code = try #require(waiting.json["pairingCode"] as? String)
        #expect(waiting.stderr.contains("fpbridge account approve --pairing-code \(code)"))
        let before = try await laptop.run(["account", "login"] + account, touches: [.finger("alice-1")])
        #expect(before.status == 1 && before.stdout.contains("invalidCredentials"), "\(before.stdout)")

        let approved = try await desk.run(["account", "approve", "--pairing-code", code] + account, touches: [.finger("alice-1")])
        #expect(approved.ok, "\(approved.stdout)\(approved.stderr)")
        #expect(approved.stderr.contains("Approve the new device 'laptop' of local user alice (pairing code \(code))"),
                "the prompt names it and whose it is: \(approved.stderr)")
        let login = try await laptop.run(["account", "login"] + account, touches: [.finger("alice-1")])
        #expect(login.ok && login.json["kind"] as? String == "fingerprint", "\(login.stdout)\(login.stderr)")
    }

    /// Issue 36: another person of alice's own machine asks to be her device, under her device's
    /// name. The approval prompt says whose it is and that it is this machine: no look-alike
    /// name passes for a new laptop.
    @Test func anApprovalForAnotherLocalUserOfThisMachineSaysSo() async throws {
        let (desk, _, server) = try await Self.deskBoundLaptopNot()
        let account = ["--server", server.address, "--account", "alice"]
        try await desk.enroll("right-index", id: "mallory-1", user: "mallory")
        let waiting = try await desk.run(["account", "bind", "--password-stdin", "--device-name", "desk", "--no-wait"] + account,
                                         user: "mallory", input: Self.password)
        let code = try #require(waiting.json["pairingCode"] as? String, "\(waiting.stdout)\(waiting.stderr)")
        let approved = try await desk.run(["account", "approve", "--pairing-code", code] + account, touches: [.finger("alice-1")])
        #expect(approved.stderr.contains("Approve the new device 'desk' of local user mallory on THIS machine (pairing code \(code))"),
                "\(approved.stderr)")
    }

    /// Issue 36: a bound device's finger makes a one-time code, and the new device binds with it
    /// without waiting for approval (which anyone with the password can keep busy).
    @Test func aSecondDeviceIsBoundWithTheCodeTheFirstInvitesItWith() async throws {
        let (desk, laptop, server) = try await Self.deskBoundLaptopNot()
        let account = ["--server", server.address, "--account", "alice"]

        let invited = try await desk.run(["account", "invite"] + account, touches: [.finger("alice-1")])
        #expect(invited.ok, "\(invited.stdout)\(invited.stderr)")
        #expect(invited.stderr.contains("Invite a new device for alice"), "the prompt says what the finger does: \(invited.stderr)")
        let code = try #require(invited.json["code"] as? String)
        let bound = try await laptop.run(["account", "bind", "--password-stdin", "--binding-code", "--device-name", "laptop"] + account,
                                         input: Self.password + code + "\n")
        #expect(bound.ok, "\(bound.stdout)\(bound.stderr)")
        let login = try await laptop.run(["account", "login"] + account, touches: [.finger("alice-1")])
        #expect(login.ok && login.json["kind"] as? String == "fingerprint", "\(login.stdout)\(login.stderr)")
    }

    /// Issue 28: a session token never goes through argv, where every local user reads it.
    @Test func aSessionTokenIsNeverTakenFromTheCommandLine() async throws {
        let refused = try await Fpbridge.run(["--json", "account", "audit", "--server", "http://127.0.0.1:9", "--token", "secret-token"])
        #expect(refused.status == 2 && refused.errorMessage.contains("FPBRIDGE_ACCOUNT_TOKEN"), "\(refused.stdout)\(refused.stderr)")

        // A server that accepts and never answers keeps the command waiting while every
        // process's command line is read.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try #require(bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0)
            }
        }
        let server = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        let token = "tok-" + UUID().uuidString
        let directory = TemporaryDirectory()
        let descriptorFile = directory.file("token")
        try (token + "\n").write(toFile: descriptorFile, atomically: true, encoding: .utf8)
        let started = PIDBox()
        async let fromStdin = Fpbridge.run(["--json", "account", "audit", "--server", server, "--token-stdin"], input: token + "\n",
                                           timeout: 4, onStart: started.set)
        async let fromEnvironment = Fpbridge.run(["--json", "account", "devices", "--server", server],
                                                 environment: ["FPBRIDGE_ACCOUNT_TOKEN": token], timeout: 4)
        async let fromDescriptor = Fpbridge.run(["--json", "account", "pay", "--server", server, "--amount", "1", "--payee", "x", "--token-fd", "3"],
                                                timeout: 4, launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" 3<'\(descriptorFile)'"])
        var seen = 0
        for _ in 0..<20 {
            // A poll: /proc sampled every 100 ms while the two commands run (2 s at most).
            try await Task.sleep(for: .milliseconds(100))
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where entry.allSatisfy(\.isNumber) {
                guard let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
                #expect(line.range(of: Data(token.utf8)) == nil, "the token is in the command line of process \(entry)")
                if String(decoding: line, as: UTF8.self).contains("account") { seen += 1 }
            }
        }
        #expect(seen > 0 && started.value > 0, "the commands were running while their command lines were read")
        _ = try await (fromStdin, fromEnvironment, fromDescriptor)
    }

    @Test func aServerThatCannotBeReachedOrAMissingServerIsAClearError() async throws {
        let none = try await Fpbridge.run(["--json", "account", "login", "--account", "alice"])
        #expect(none.status == 2 && none.errorMessage.contains("--server"))
        let closed = try await Fpbridge.run(["--json", "--reader", "fake", "--state-dir", TemporaryDirectory().file("s"),
                                             "account", "register", "--password-stdin", "--server", "http://127.0.0.1:9"],
                                            input: Self.password)
        #expect(closed.status == 3 && closed.errorMessage.contains("cannot reach the server"))
    }
}
