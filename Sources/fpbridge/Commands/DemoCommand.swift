import FPLocalAPI
import ArgumentParser
import FPAuthentication
import FPTerminal
import FPCore
import FPReaders
import FPStore
import FoundationEssentials
import Glibc

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "A narrated walk-through on the fake reader: no hardware, no set-up, nothing kept.",
        discussion: """
        'demo' enrolls a finger, matches it, fails to match another, runs into lockout and recovers with the passcode. \
        'demo login' is the seeds' story against a real fpbridge-server on loopback: register, bind this device, log in \
        by finger, pay, a wrong finger, lockout, the passcode, a new finger that invalidates the key, password and \
        binding again. Uses a temporary state directory unless --state-dir is given.
        """)

    enum Story: String, ExpressibleByArgument, CaseIterable {
        case basics
        case login
    }

    @OptionGroup var options: GlobalOptions
    @Argument(help: "basics (the engine's rules) or login (fingerprint login and payment with a server).")
    var story: Story = .basics

    func run() async throws {
        let temporary = options.stateDir == nil
        let directory = temporary
            ? StateDirectory(path: FileManager.default.temporaryDirectory
                .appending(component: "fpbridge-demo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path(percentEncoded: false))
            : options.stateDirectory
        defer { if temporary { try? FileManager.default.removeItem(atPath: directory.path) } }
        var configuration = AuthConfiguration()
        configuration.scanTimeoutSeconds = 5
        let demo = DemoRun(directory: directory, configuration: configuration, console: options.console)
        let steps: [JSONValue]
        if story == .login {
            let server = try DemoServer.start(directory: directory.path)
            defer { server.stop() }
            steps = try await LoginDemo(run: demo, server: server).run()
        } else {
            steps = try await demo.run()
        }
        options.console.success("\nThe demo is over: every rule above is the engine's, not the demo's.",
                                ["steps": .array(steps), "user": .string(DemoRun.user)])
    }
}

/// The demo's script: each step narrates, runs the real engine on a fake reader, and reports.
struct DemoRun {
    static let user = "alice"
    static let passcode: Passcode = "2468"

    let directory: StateDirectory
    let configuration: AuthConfiguration
    let console: Console

    func run() async throws -> [JSONValue] {
        var steps: [JSONValue] = []
        func record(_ name: String, _ result: Result<AuthSuccess, AuthError>) {
            switch result {
            case .success(let success):
                say("  → success: \(success.user) by \(success.method.rawValue)")
                steps.append(["step": .string(name), "ok": true, "method": .string(success.method.rawValue)])
            case .failure(let error):
                say("  → \(error.code.name) (\(error.code.rawValue)): \(error.message)")
                steps.append(["step": .string(name), "ok": false, "code": .int(error.code.rawValue),
                              "name": .string(error.code.name)])
            }
        }

        say("1. Alice sets a passcode (kept only as a salted scrypt hash); as on iOS, no finger without one.")
        try await PasscodeManager(context: context(script: "")).set(Self.passcode)
        steps.append(["step": "passcode-set", "ok": true])

        say("2. Enroll alice's right index finger: her passcode, then five touches, one of them too short.")
        let enrolled = try await enroll(script: "scan alice-1\nscan alice-1\nretry too-short\nscan alice-1\nscan alice-1\nscan alice-1")
        steps.append(["step": "enroll", "ok": true, "finger": .string(enrolled.finger.rawValue)])
        say("  → enrolled \(enrolled.finger.rawValue); state hash \(try hash().prefix(12))…")

        say("3. Verify: alice touches the reader.")
        record("verify-match", await verify(script: "scan alice-1"))

        say("4. Verify: somebody else touches it.")
        record("verify-no-match", await verify(script: "scan mallory-1"))

        say("5. Authenticate (biometrics): three wrong fingers in one prompt end it.")
        record("auth-three-failures", await auth(.biometrics, script: "scan mallory-1\nscan mallory-2\nscan mallory-3"))

        say("6. Authenticate again: the no-match in step 4 counted too, so one more wrong finger makes "
            + "five in a row, and fingerprint locks (the second touch is never read).")
        record("auth-lockout", await auth(.biometrics, script: "scan mallory-4\nscan mallory-5"))

        say("7. Even the right finger is refused now, without a scan.")
        record("auth-while-locked", await auth(.biometrics, script: "scan alice-1"))

        say("8. Authenticate as device owner: the locked fingerprint falls to the passcode.")
        record("auth-device-owner-passcode", await auth(.deviceOwner, script: "", passcodes: [Self.passcode]))

        say("9. Fingerprint works again.")
        record("auth-after-recovery", await auth(.biometrics, script: "scan alice-1"))
        return steps
    }

    func say(_ text: String) {
        if console.json { console.note(text) } else { print(text) }
    }

    func context(script: String) throws -> AuthenticationContext {
        let reader = FakeReader(script: try FakeScript.parse(script))
        return AuthenticationContext(environment: AuthEnvironment(
            user: Self.user, reader: reader, stateDirectory: directory, configuration: configuration))
    }

    func withReader<T>(_ context: AuthenticationContext, _ body: () async throws -> T) async throws -> T {
        try await context.environment.reader?.open()
        defer { context.invalidate() }
        let console = console
        let printer = EventPrinter.start(for: context.events) { line in
            if console.json { console.note("   " + line) } else { print("   " + line) }
        }
        let result = try await body()
        context.invalidate()
        await printer.value
        return result
    }

    func enroll(_ finger: Finger = .rightIndex, script: String) async throws -> PrintRecord {
        let context = try context(script: script)
        return try await withReader(context) {
            var saved: PrintRecord?
            let prompt = ListedPasscodes([Self.passcode])
            for try await update in Enrollment(context: context).enroll(finger, replace: true, prompt: prompt) {
                if case .saved(let record) = update { saved = record }
            }
            return saved!
        }
    }

    private func verify(script: String) async -> Result<AuthSuccess, AuthError> {
        await attempt(script: script) { try await $0.verifyFinger(reason: "demo", options: BiometricOptions(maxFailedMatches: 1)) }
    }

    func auth(_ policy: AuthPolicy, script: String, passcodes: [Passcode] = []) async -> Result<AuthSuccess, AuthError> {
        await attempt(script: script) {
            try await $0.evaluate(policy, reason: "Unlock the demo", prompt: ListedPasscodes(passcodes))
        }
    }

    func attempt(script: String, _ body: (AuthenticationContext) async throws -> AuthSuccess) async -> Result<AuthSuccess, AuthError> {
        do {
            let context = try context(script: script)
            return .success(try await withReader(context) { try await body(context) })
        } catch {
            return .failure(AuthError(error))
        }
    }

    private func hash() throws -> String {
        try PrintStore(directory: directory).enrollmentStateHash(user: Self.user) ?? "none"
    }
}
