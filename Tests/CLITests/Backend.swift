import Foundation
import Synchronization
import Testing
import TestSupport

/// A reader backend the behavioural suite runs against: the same cases, the same
/// command lines, only the way the finger is played and where the engine runs differ.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The built-in fake reader, fed a script per command.
    case fake
    /// libfprint's `virtual_device`, fed commands over its socket while the command runs.
    case virtualDevice
    /// The fake reader, the engine in a real `fpbridged` the CLI talks to.
    case fakeThroughService
    /// `virtual_device` opened by a real `fpbridged` the CLI talks to.
    case virtualDeviceThroughService

    var testDescription: String { rawValue }

    /// The fake reader (a script per command), else `virtual_device`.
    var isFake: Bool { self == .fake || self == .fakeThroughService }

    /// The engine runs in `fpbridged`, not in the CLI's process.
    var throughService: Bool { self == .fakeThroughService || self == .virtualDeviceThroughService }
}

/// A touch on the reader: a finger by id, or a scan the reader rejects as unusable.
enum Touch: Sendable {
    case finger(String)
    case retry
}

/// One user's state directory and reader, for one behavioural case.
final class Bench: Sendable {
    let backend: Backend
    let directory = TemporaryDirectory()
    let socket: String
    /// The passcode each user was given, so that enrolling can enter it.
    private let passcodes = Mutex<[String: String]>([:])

    /// The service the CLI talks to, for the `…ThroughService` backends.
    let service: ServiceProcess?

    /// `serviceArguments`: more `fpbridged` options for the `…ThroughService` backends (`--tpm`).
    init(_ backend: Backend, systemBus: String? = nil, serviceArguments: [String] = []) async throws {
        self.backend = backend
        let socket = TemporaryDirectory.socketPath()
        self.socket = socket
        var environment = backend.isFake ? [:] : ["FP_VIRTUAL_DEVICE": socket, "FP_DRIVERS_WHITELIST": "virtual_device"]
        if let systemBus { environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus }
        service = backend.throughService ? try await ServiceProcess(environment: environment, arguments: serviceArguments) : nil
        // A bound on every scan, so a case that wrongly scans fails fast instead of hanging.
        try directory.privateDirectory("state")
        try Data(#"{"scanTimeoutSeconds": 8}"#.utf8).write(to: URL(fileURLWithPath: directory.file("state/config.json")))
    }

    var state: String { directory.file("state") }

    /// What the CLI prints when a scan on `virtual_device` (a swipe sensor) waits for a finger;
    /// not the retry hints ("Center your finger…").
    static let scanPrompt = "Swipe your finger across the reader"

    /// What makes libfprint show `virtual_device` on `socket` (default: this bench's) and nothing else.
    func virtualDeviceEnvironment(socket: String? = nil) -> [String: String] {
        ["FP_VIRTUAL_DEVICE": socket ?? self.socket, "FP_DRIVERS_WHITELIST": "virtual_device"]
            .merging(serviceEnvironment) { $1 }
    }

    /// What makes `fpbridge` use this bench's service, if it has one.
    var serviceEnvironment: [String: String] { service?.clientEnvironment ?? [:] }

    /// Runs `fpbridge --json ARGS` as `user`, playing `touches` on the reader.
    /// `script` replaces the touches on the fake reader.
    /// `onStderr` sees the command's stderr as it grows (its prompts).
    func run(_ arguments: [String], user: String = "alice", touches: [Touch] = [], input: String = "",
             socket: String? = nil, script: String? = nil,
             onStderr: (@Sendable (String) -> Void)? = nil) async throws -> CommandResult {
        let base = ["--json", "--state-dir", state, "--user", user]
        if backend.isFake {
            let path = directory.file("script-\(UUID().uuidString.prefix(8)).txt")
            let script = script ?? touches.map { touch in
                switch touch {
                case .finger(let id): "scan \(id)"
                case .retry: "retry general"
                }
            }.joined(separator: "\n")
            try script.write(toFile: path, atomically: true, encoding: .utf8)
            return try await Fpbridge.run(base + ["--reader", "fake:" + path] + arguments, environment: serviceEnvironment,
                                          input: input, onStderr: onStderr)
        } else {
            let socket = socket ?? self.socket
            // A touch sent as a scan ends reaches virtual_device inside the operation that is
            // ending: libfprint reports twice (`result_reported == FALSE` fails) and the touch is
            // lost, in process as through the service; the service also drops one sent while it
            // closes its idle reader. So each touch waits for its prompt (one per scan), which
            // comes once the previous scan has finished; an enrollment prompts once for all its touches.
            let prompts = touches.isEmpty ? nil : PromptSignal(Self.scanPrompt)
            let watchPrompt = prompts?.watcher()
            let environment = virtualDeviceEnvironment(socket: socket)
            let command = Task {
                defer { prompts?.finish() }
                return try await Fpbridge.run(base + ["--reader", "libfprint:virtual_device"] + arguments,
                                              environment: environment, input: input, onStderr: { text in
                    watchPrompt?(text)
                    onStderr?(text)
                })
            }
            let promptPerTouch = arguments.first != "enroll"
            for (index, touch) in touches.enumerated() {
                if let prompts, index == 0 || promptPerTouch {
                    // No prompt: the command ended without scanning again; the touch would stay unused.
                    guard await prompts.next(within: 30) else { break }
                }
                switch touch {
                case .finger(let id):
                    try await VirtualReaderDriver.send(socket, ["SCAN \(id)"])
                case .retry:
                    try await VirtualReaderDriver.send(socket, ["RETRY 0"])
                    // virtual_device goes on to the next queued command within the operation that
                    // just reported the retry (libfprint asserts and that touch is lost), so the
                    // next touch waits until fpbridge has started the scan again.
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            return try await command.value
        }
    }

    /// Enrolls as a user would: the passcode (set first when the user has none), then five touches.
    func enroll(_ finger: String = "right-index", id: String = "p1", user: String = "alice") async throws {
        if passcodes.withLock({ $0[user] }) == nil { try await setPasscode(user: user) }
        let passcode = passcodes.withLock { $0[user] }!
        let result = try await run(["enroll", "--finger", finger, "--passcode-stdin"], user: user,
                                   touches: Array(repeating: .finger(id), count: 5), input: passcode + "\n")
        #expect(result.status == 0, "enroll: \(result.stdout)\(result.stderr)")
    }

    /// Sets the user's first passcode.
    func setPasscode(_ passcode: String = "2468", user: String = "alice") async throws {
        let result = try await run(["passcode", "set", "--passcode-stdin"], user: user, input: passcode + "\n")
        #expect(result.status == 0, "passcode set: \(result.stdout)")
        passcodes.withLock { $0[user] = passcode }
    }

    /// The user's biometric failure count as `status` reports it.
    func failures(_ user: String = "alice") async throws -> Int? {
        (try await run(["status"], user: user).json["biometry"] as? [String: Any])?["failures"] as? Int
    }
}
