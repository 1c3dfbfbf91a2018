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
                                        "--token", token] + account, touches: [.finger("alice-1")])
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

        let audit = try await bench.run(["account", "audit", "--token", token] + account)
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
        #expect(steps == ["enroll", "register", "bind", "login", "pay", "login-wrong-finger: authenticationFailed",
                          "login-lockout: biometryLockout", "login-while-locked: biometryLockout", "passcode", "login-after-passcode",
                          "login-after-new-finger: keyInvalidated", "bind-again", "login-after-rebinding"])
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
