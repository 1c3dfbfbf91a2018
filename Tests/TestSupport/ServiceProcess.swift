import Foundation

/// A real `fpbridged` started for a test, in test mode, on a socket in a temporary
/// directory; stopped (SIGTERM, then SIGKILL) when the value goes away.
public final class ServiceProcess: Sendable {
    public let socket: String
    public let stateDirectory: String
    private let directory: TemporaryDirectory
    private let process: Process
    private let log: String

    /// The `fpbridged` built beside `fpbridge`.
    public static var executable: String {
        URL(fileURLWithPath: Fpbridge.executable).deletingLastPathComponent().appendingPathComponent("fpbridged").path
    }

    /// Starts the service and waits until its socket accepts connections.
    /// - Parameters:
    ///   - environment: added to the child's (libfprint's virtual readers).
    ///   - arguments: more `fpbridged` options.
    ///   - stateDirectory: the service's own state directory (0700, existing); a new one when nil.
    public init(environment: [String: String] = [:], arguments: [String] = [], testMode: Bool = true,
                launcher: [String] = [], stateDirectory: String? = nil) async throws {
        directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        socket = directory.file("fpbridged.sock")
        self.stateDirectory = try stateDirectory ?? directory.privateDirectory("service-state")
        log = directory.file("fpbridged.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? Self.executable)
        let own = ["--socket", socket, "--state-dir", self.stateDirectory] + (testMode ? ["--test-mode"] : []) + arguments
        process.arguments = launcher.isEmpty ? own : Array(launcher.dropFirst()) + [Self.executable] + own
        process.environment = Fpbridge.childEnvironment(environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(20)
        while !Self.accepts(socket) {
            guard process.isRunning, Date() < deadline else {
                throw ServiceProcessError(message: "fpbridged did not start: \(output)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        stop()
    }

    /// Runs `fpbridged ARGS` to its end (a start that is refused), within 20 s.
    public static func runToEnd(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
        try await Fpbridge.runCommand([executable] + arguments, environment: Fpbridge.childEnvironment(environment), timeout: 20)
    }

    /// The process id, to signal it.
    public var pid: Int32 { process.processIdentifier }

    /// Whether the process still runs.
    public var isRunning: Bool { process.isRunning }

    /// What the service wrote on stdout and stderr so far.
    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The environment that makes `fpbridge` use this service.
    public var clientEnvironment: [String: String] { ["FPBRIDGE_SERVICE": socket] }

    /// How the process ended: its exit status, or nil while it runs or when a signal ended it.
    public var exitStatus: Int32? {
        guard !process.isRunning, process.terminationReason == .exit else { return nil }
        return process.terminationStatus
    }

    /// Stops the service: SIGTERM, then SIGKILL after 5 s.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// True when a connection to the socket is accepted.
    public static func accepts(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}

/// The service could not be started.
public struct ServiceProcessError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// One answer of the service's API, read with curl over the socket.
public struct APIAnswer: Sendable {
    public let status: Int
    public let body: String

    /// The body's first JSON object (the whole body, or a stream's first line).
    public var json: [String: Any] { line(0) }

    /// Line `index` of a stream, as a JSON object.
    public func line(_ index: Int) -> [String: Any] {
        let lines = body.split(separator: "\n")
        guard index < lines.count, let data = lines[index].data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// Every line of a stream, as JSON objects.
    public var lines: [[String: Any]] { (0..<body.split(separator: "\n").count).map(line) }

    public var errorCode: Int? { (json["error"] as? [String: Any])?["code"] as? Int }
}

extension ServiceProcess {
    /// Sends one request with curl (as `launcher` when given, e.g. another uid) and returns the answer.
    public func request(_ method: String, _ path: String, body: String? = nil, launcher: [String] = [],
                        timeout: TimeInterval = 30) async throws -> APIAnswer {
        var arguments = ["-sS", "-N", "--max-time", String(Int(timeout)), "--unix-socket", socket, "-X", method,
                         "-w", "\n%{http_code}", "http://localhost" + path]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? "/usr/bin/curl")
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + ["/usr/bin/curl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = try await blocking { output.fileHandleForReading.readDataToEndOfFile() }
        try await blocking { process.waitUntilExit() }
        var text = String(decoding: data, as: UTF8.self)
        let status = text.split(separator: "\n").last.flatMap { Int($0) } ?? 0
        if let cut = text.lastIndex(of: "\n") { text = String(text[..<cut]) }
        return APIAnswer(status: status, body: text)
    }
}

extension ServiceProcess {
    /// Sends a streamed request (`POST path`) with curl and reads its lines as they come: `onLine`
    /// sees each one, with every line before it, while the operation waits for what comes next,
    /// so that a test can act at that very point (answer a prompt, send other requests).
    /// Returns every line of the stream.
    public func stream(_ path: String, body: String, timeout: TimeInterval = 30,
                       onLine: (_ line: [String: Any], _ lines: [[String: Any]]) async throws -> Void) async throws -> [[String: Any]] {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sS", "-N", "--max-time", String(Int(timeout)), "--unix-socket", socket, "-X", "POST",
                          "-H", "Content-Type: application/json", "--data-binary", body, "http://localhost" + path]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        var lines: [[String: Any]] = []
        var pending = Data()
        reading: while true {
            while let end = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<end]
                pending = Data(pending[pending.index(after: end)...])
                guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else { break reading }
                lines.append(object)
                try await onLine(object, lines)
            }
            let chunk = try await blocking { output.fileHandleForReading.availableData }
            if chunk.isEmpty { break }
            pending.append(chunk)
        }
        try await blocking { curl.waitUntilExit() }
        return lines
    }
}
