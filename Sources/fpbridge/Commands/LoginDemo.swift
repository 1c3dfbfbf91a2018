import FPAuthentication
import FPLocalAPI
import FingerprintLogin
import FingerprintLoginInProcess
import FoundationEssentials
import Glibc

/// `fpbridge demo login`: seeds 000 and 002 end to end, against a real `fpbridge-server`
/// started on loopback with an empty SQLite database, on the fake reader.
struct LoginDemo {
    let run: DemoRun
    let server: DemoServer
    static let password = "correct horse battery"

    func run() async throws -> [JSONValue] {
        let user = DemoRun.user
        var steps: [JSONValue] = []
        func login(_ name: String, script: String) async -> Result<SessionToken, FingerprintLoginError> {
            await step(name, &steps) { try await $0.login(username: user) } script: { script }
        }

        run.say("fpbridge-server is listening on \(server.origin) (SQLite in a temporary directory).\n")
        run.say("1. Alice sets a passcode and enrolls her right index finger (as in 'fpbridge demo').")
        try await PasscodeManager(context: run.context(script: "")).set(DemoRun.passcode)
        _ = try await run.enroll(script: String(repeating: "scan alice-1\n", count: 5))
        steps.append(["step": "enroll", "ok": true])

        run.say("2. She registers at the server with a password (kept there as a salted scrypt hash).")
        _ = await step("register", &steps) { try await $0.register(username: user, password: Self.password); return "registered" }

        run.say("3. She binds this device (seed 002): password login, then a new key that only a match of her current fingers releases;")
        run.say("   the server checks its attestation by the device identity key and keeps the public key.")
        _ = await step("bind", &steps) { try await Self.bound($0.bind(username: user, password: Self.password, deviceName: "demo reader")) }

        run.say("4. She logs in with her finger: the server's single-use challenge is signed after the match.")
        guard case .success(let session) = await login("login", script: "scan alice-1") else { return steps }

        run.say("5. She pays 12.50 EUR to Coffee Shop (seed 000): the prompt shows both, the signature covers exactly that payment.")
        _ = await step("pay", &steps) {
            try await $0.pay(username: user, amount: "12.50", currency: "EUR", payee: "Coffee Shop", session: session.token).status
        } script: { "scan alice-1" }

        run.say("6. She gets a laptop with a reader of its own. The password alone binds only an account's first device:")
        run.say("   the laptop shows a pairing code and waits until a device already bound approves it with a finger.")
        let laptop = DemoRun(directory: StateDirectory(path: run.directory.path + "/laptop"), configuration: run.configuration,
                             console: run.console)
        try await PasscodeManager(context: laptop.context(script: "")).set(DemoRun.passcode)
        _ = try await laptop.enroll(script: String(repeating: "scan alice-1\n", count: 5))
        let waiting = await step("laptop-bind", &steps, on: laptop) { client -> PendingBinding in
            guard case .waitingForApproval(let pending, _) = try await client.bind(username: user, password: Self.password,
                                                                                    deviceName: "alice's laptop") else {
                throw FingerprintLoginError.transport("the server bound a second device on the password alone")
            }
            return pending
        }
        if case .success(let pending) = waiting {
            run.say("   The laptop shows pairing code \(pending.pairingCode); on the desk reader she approves it (the prompt names the laptop).")
            _ = await step("approve-laptop", &steps) {
                try await $0.approve(username: user, pairingCode: pending.pairingCode).name
            } script: { "scan alice-1" }
            _ = await step("laptop-login", &steps, on: laptop) { try await $0.login(username: user).kind } script: { "scan alice-1" }
        }
        run.say("   Mallory has her password and a reader of his own: his device is refused, since nothing alice trusts vouches for it.")
        let mallory = DemoRun(directory: StateDirectory(path: run.directory.path + "/mallory"), configuration: run.configuration,
                              console: run.console)
        try await PasscodeManager(context: mallory.context(script: "")).set(DemoRun.passcode)
        _ = try await mallory.enroll(script: String(repeating: "scan mallory-1\n", count: 5))
        _ = await step("mallory-bind", &steps, on: mallory) {
            try await Self.bound($0.bind(username: user, password: Self.password, deviceName: "alice's phone", requestApproval: false))
        }

        run.say("7. Mallory tries to log in as alice: three wrong fingers end the prompt; nothing is signed, nothing sent.")
        _ = await login("login-wrong-finger", script: "scan mallory-1\nscan mallory-2\nscan mallory-3")

        run.say("8. Two more wrong fingers: five in a row lock fingerprint, and even alice's finger is refused without a scan.")
        _ = await login("login-lockout", script: "scan mallory-4\nscan mallory-5")
        _ = await login("login-while-locked", script: "scan alice-1")

        run.say("9. Alice enters her passcode; fingerprint works again and she logs in.")
        steps.append(outcome("passcode", await run.auth(.deviceOwner, script: "", passcodes: [DemoRun.passcode]).map { $0.method.rawValue }))
        _ = await login("login-after-passcode", script: "scan alice-1")

        run.say("10. Somebody enrolls another finger on this device: the key bound to the old set of fingers is invalidated for good.")
        _ = try await run.enroll(.leftIndex, script: String(repeating: "scan eve-1\n", count: 5))
        _ = await login("login-after-new-finger", script: "scan alice-1")

        run.say("11. As on iOS and Android, alice logs in with her password and binds the device again; her finger works again.")
        _ = await step("bind-again", &steps) { try await Self.bound($0.bind(username: user, password: Self.password, deviceName: "demo reader")) }
        _ = await login("login-after-rebinding", script: "scan alice-1")
        return steps
    }

    /// The device id of a binding done on the password alone (this device again, or the account's first).
    private static func bound(_ result: BindingResult) throws -> String {
        guard case .bound(let device) = result else { throw FingerprintLoginError.transport("the server asked for an approval") }
        return device.deviceId
    }

    /// Runs one client call on a fake reader fed `script` (of `device`, by default the desk reader), and narrates its outcome.
    private func step<T: Sendable>(_ name: String, _ steps: inout [JSONValue], on device: DemoRun? = nil,
                                   _ body: (FingerprintLogin) async throws -> T,
                                   script: () -> String = { "" }) async -> Result<T, FingerprintLoginError> {
        let result: Result<T, FingerprintLoginError>
        let device = device ?? run
        do {
            let context = try device.context(script: script())
            let client = FingerprintLogin(server: server.url, keyring: ContextKeyring(context: context))
            result = .success(try await device.withReader(context) { try await body(client) })
        } catch let error as FingerprintLoginError {
            result = .failure(error)
        } catch {
            result = .failure(.device(AuthError(error)))
        }
        steps.append(outcome(name, result.map { "\($0)" }))
        return result
    }

    private func outcome<E: Error>(_ name: String, _ result: Result<String, E>) -> JSONValue {
        switch result {
        case .success(let value):
            run.say("  → ok\(value.count < 60 && !value.contains("token") ? ": \(value)" : "")")
            return ["step": .string(name), "ok": true]
        case .failure(let error):
            let text: String
            var fields: [String: JSONValue] = ["step": .string(name), "ok": false]
            switch error {
            case let error as FingerprintLoginError:
                text = error.description + (error.needsRebinding ? " → log in with the password and bind again" : "")
                switch error {
                case .device(let auth): fields["code"] = .int(auth.code.rawValue); fields["name"] = .string(auth.code.name)
                case .server(let refusal): fields["name"] = .string(refusal.code.rawValue)
                default: fields["name"] = "client"
                }
            case let error as AuthError:
                text = "\(error.code.name) (\(error.code.rawValue)): \(error.message)"
                fields["code"] = .int(error.code.rawValue)
                fields["name"] = .string(error.code.name)
            default: text = "\(error)"
            }
            run.say("  → \(text)")
            return .object(fields)
        }
    }
}
