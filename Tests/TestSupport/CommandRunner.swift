import Foundation

/// The outcome of running the `fpbridge` binary.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// stdout parsed as the one JSON object `--json` promises.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
    }

    public var errorCode: Int? { (json["error"] as? [String: Any])?["code"] as? Int }
    public var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
    public var ok: Bool { json["ok"] as? Bool == true }
}

/// Runs the built `fpbridge` executable as a separate process, as a user would.
public enum Fpbridge {
    public static let executable: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            beside.appendingPathComponent("fpbridge").path,
            beside.deletingLastPathComponent().appendingPathComponent("fpbridge").path,
            packageRoot.appendingPathComponent(".build/debug/fpbridge").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()

    /// A copy of ``executable`` that another uid can run, in `directory` (made 0755): the build
    /// folder may sit below a folder only its owner can enter (a clone in `mktemp -d`'s 0700 one).
    public static func executableForOtherUsers(in directory: TemporaryDirectory) throws -> String {
        try copyForOtherUsers(executable, in: directory)
    }

    /// A copy of `path` (a program, a test helper script) that another uid can read and run, in
    /// `directory` (made 0755), for the same reason as ``executableForOtherUsers(in:)``.
    public static func copyForOtherUsers(_ path: String, in directory: TemporaryDirectory) throws -> String {
        chmod(directory.path, 0o755)
        let copy = directory.file(URL(fileURLWithPath: path).lastPathComponent)
        if !FileManager.default.fileExists(atPath: copy) { try FileManager.default.copyItem(atPath: path, toPath: copy) }
        chmod(copy, 0o755)
        return copy
    }

    /// This process's environment without any libfprint or fpbridge setting, so that a
    /// test sees only what it sets; emulation mode on, as in libfprint's own tests.
    public static func childEnvironment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("FP_") || key.hasPrefix("FPBRIDGE_") { environment[key] = nil }
        environment["FP_DEVICE_EMULATION"] = "1"
        return environment.merging(extra) { $1 }
    }

    /// Kills the child after `timeout` seconds unless cancelled first: a hung command fails its test.
    static func killer(_ pid: Int32, after timeout: TimeInterval) -> Task<Void, any Error> {
        Task {
            try await Task.sleep(for: .seconds(timeout))
            kill(pid, SIGKILL)
        }
    }

    /// Runs `fpbridge ARGS` against a recorded real reader in `../shared/replays/NAME`.
    public static func replay(_ recording: String, _ arguments: [String], timeout: TimeInterval = 120) async throws -> CommandResult {
        let replays = SharedData.root! + "/replays"
        return try await run(arguments, timeout: timeout, launcher: ["/bin/bash", replays + "/replay", replays + "/" + recording, "--"])
    }

    /// Runs `fpbridge ARGS`, feeding `input` on stdin; kills it after `timeout` seconds.
    /// `launcher`, when given, runs first with `fpbridge ARGS` after it (e.g. the replay script).
    /// `standardInput`, when given, replaces `input`: the caller writes to it and closes it (or never does).
    /// `onStderr`, when given, sees stderr as it grows (all of it so far, each time more arrives).
    public static func run(_ arguments: [String], environment: [String: String] = [:], input: String = "",
                           timeout: TimeInterval = 60, launcher: [String] = [], standardInput: Pipe? = nil,
                           onStart: (@Sendable (Int32) -> Void)? = nil,
                           onStderr: (@Sendable (String) -> Void)? = nil) async throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? executable)
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [executable] + arguments
        process.environment = childEnvironment(environment)
        let stdin = standardInput ?? Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        onStart?(process.processIdentifier)
        if standardInput == nil {
            // The child may be gone already (a usage error): what it did is the test's to judge.
            stdin.fileHandleForWriting.writeToChild(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let killer = killer(process.processIdentifier, after: timeout)
        async let out = blocking { stdout.fileHandleForReading.readDataToEndOfFile() }
        async let err = blocking { readToEnd(stderr.fileHandleForReading, onStderr) }
        let (outData, errData) = try await (out, err)
        try await blocking { process.waitUntilExit() }
        killer.cancel()
        return CommandResult(status: process.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension Fpbridge {
    /// Runs any command (`arguments[0]` is its path) with exactly `environment`, stdin empty;
    /// kills it after `timeout` seconds.
    public static func runCommand(_ arguments: [String], environment: [String: String], timeout: TimeInterval) async throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let killer = killer(process.processIdentifier, after: timeout)
        async let out = blocking { stdout.fileHandleForReading.readDataToEndOfFile() }
        async let err = blocking { stderr.fileHandleForReading.readDataToEndOfFile() }
        let (outData, errData) = try await (out, err)
        try await blocking { process.waitUntilExit() }
        killer.cancel()
        return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Reads to end of file, showing `watcher` everything read so far after each chunk.
    static func readToEnd(_ handle: FileHandle, _ watcher: (@Sendable (String) -> Void)?) -> Data {
        guard let watcher else { return handle.readDataToEndOfFile() }
        var all = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return all }
            all += chunk
            watcher(String(decoding: all, as: UTF8.self))
        }
    }
}

/// Holds a child's process id, set from `Fpbridge.run`'s `onStart`.
public final class PIDBox: @unchecked Sendable {
    private let lock = NSLock()
    private var pid: Int32 = 0

    public init() {}

    public func set(_ pid: Int32) { lock.withLock { self.pid = pid } }
    public var value: Int32 { lock.withLock { pid } }
}

extension Fpbridge {
    /// Runs `fpbridge ARGS` on a pseudo-terminal (util-linux `script`), typing each
    /// keystroke string after its delay, as a person at the terminal would.
    public static func runInTerminal(_ arguments: [String], keystrokes: [(after: Duration, keys: String)],
                                     environment: [String: String] = [:], timeout: TimeInterval = 60) async throws -> CommandResult {
        let command = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // `exec`: fpbridge replaces script's $SHELL -c, so the terminal's signals reach it alone.
        process.arguments = ["-qefc", "exec " + command, "/dev/null"]
        process.environment = childEnvironment(environment)
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        let killer = killer(process.processIdentifier, after: timeout)
        async let output = blocking { stdout.fileHandleForReading.readDataToEndOfFile() }
        for (delay, keys) in keystrokes {
            try await Task.sleep(for: delay)
            stdin.fileHandleForWriting.writeToChild(Data(keys.utf8))
        }
        let data = try await output
        try stdin.fileHandleForWriting.close()
        try await blocking { process.waitUntilExit() }
        killer.cancel()
        return CommandResult(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }
}
