import Foundation
import FPAuthentication
import LocalAuthentication
import LocalAuthenticationInProcess
import TestSupport

/// Where the compatibility test runs: the fake reader, or libfprint's
/// `virtual_device` in this process. Sets ``LAContext/fpbridgeDefaults`` (the
/// one thing Linux code adds to iOS code) and plays the fingers.
enum ReaderBench: String, CaseIterable, Sendable, CustomStringConvertible {
    case fake
    case virtualDevice = "virtual_device"

    var description: String { rawValue }

    static let passcode = "2468"

    /// A private state directory with fast scrypt and a short scan timeout, as the defaults.
    func configure(_ directory: TemporaryDirectory, user: String = "alice") throws {
        InProcessLibfprint.prepare()
        var configuration = AuthConfiguration()
        configuration.passcodeHashRounds = 1024
        configuration.scanTimeoutSeconds = 10
        let selection: ReaderSelection = self == .fake ? .fake(scriptPath: nil) : .libfprint(driver: "virtual_device")
        LAContext.fpbridgeDefaults = FPBridgeSettings(
            reader: selection, stateDirectory: StateDirectory(path: try directory.privateDirectory("state")), user: user,
            engine: .inProcess(configuration: configuration), prompt: ListedPasscodes([]), terminalInterface: false)
    }

    /// Runs a test as the only user of the in-process `virtual_device` (the fake reader is per test).
    func exclusively(_ body: () async throws -> Void) async throws {
        if self == .fake { try await body() } else { try await InProcessLibfprint.withDevice(body) }
    }

    /// Runs `body` while the given fingers touch the reader, in order (each one
    /// consumed by one scan). A context made inside `body` sees them.
    func touching<T: Sendable>(_ fingers: [String], _ body: @Sendable () async throws -> T) async throws -> T {
        switch self {
        case .fake:
            let lines = fingers.map { "scan \($0)" } + ["wait 20000"]
            LAContext.fpbridgeDefaults.readerInstance = FakeReader(script: try FakeScript.parse(lines.joined(separator: "\n")))
            defer { LAContext.fpbridgeDefaults.readerInstance = nil }
            return try await body()
        case .virtualDevice:
            let scans = PromptSignal("scan")
            guard let reader = try await LAContext.fpbridgeDefaults.reader.reader() as? any PrintMatching else {
                throw VirtualReaderDriver.DriverError(message: "virtual_device cannot match prints")
            }
            LAContext.fpbridgeDefaults.readerInstance = ScanSignallingReader(reader, scans: scans)
            defer { LAContext.fpbridgeDefaults.readerInstance = nil }
            let played = Task {
                for finger in fingers {
                    // A scan that never starts (the evaluation ended sooner) takes no finger.
                    guard await scans.next(within: 30) else { return }
                    try await VirtualReaderDriver.send(InProcessLibfprint.deviceSocket, ["SCAN \(finger)"])
                }
            }
            let result: T
            do {
                result = try await body()
            } catch {
                scans.finish()
                try? await played.value
                throw error
            }
            scans.finish()
            try await played.value
            return result
        }
    }

    /// Plays the fingers as soon as the reader listens, for a reader the test opens itself.
    func touchingOwnReader<T: Sendable>(_ fingers: [String], _ body: @Sendable () async throws -> T) async throws -> T {
        async let played: [String] = fingers.isEmpty || self == .fake ? [] : VirtualReaderDriver.send(
            InProcessLibfprint.deviceSocket, fingers.map { "SCAN \($0)" })
        let result = try await body()
        _ = try await played
        return result
    }

    /// Sets alice's passcode and enrolls one finger, as the Settings app does on iOS
    /// (through the engine: LocalAuthentication has no enrollment, as on iOS).
    func enroll(_ finger: Finger, as id: String, setPasscode: Bool = true) async throws {
        let settings = LAContext.fpbridgeDefaults
        let stages = 5
        try await touchingOwnReader(Array(repeating: id, count: stages)) {
            let reader: any FingerprintReader
            if self == .fake {
                let script = try FakeScript.parse((["set stages \(stages)"] + Array(repeating: "scan \(id)", count: stages)).joined(separator: "\n"))
                reader = FakeReader(script: script)
            } else {
                reader = try await settings.reader.reader()
            }
            let engine = AuthenticationContext(environment: AuthEnvironment(
                user: settings.user, reader: reader, stateDirectory: settings.stateDirectory,
                configuration: settings.configuration ?? AuthConfiguration()))
            if setPasscode { try await engine.passcode.set(Passcode(stringLiteral: Self.passcode)) }
            try await reader.open()
            do {
                for try await _ in engine.enroll(finger, prompt: ListedPasscodes([Passcode(stringLiteral: Self.passcode)])) {}
                try await reader.close()
            } catch {
                try? await reader.close()
                throw error
            }
        }
    }

    /// Sets alice's passcode only.
    func setPasscode() async throws {
        let settings = LAContext.fpbridgeDefaults
        let engine = AuthenticationContext(environment: AuthEnvironment(
            user: settings.user, reader: nil, stateDirectory: settings.stateDirectory,
            configuration: settings.configuration ?? AuthConfiguration()))
        try await engine.passcode.set(Passcode(stringLiteral: Self.passcode))
    }
}
