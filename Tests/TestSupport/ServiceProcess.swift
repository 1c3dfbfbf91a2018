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
    public init(environment: [String: String] = [:], arguments: [String] = [], testMode: Bool = true,
                launcher: [String] = []) async throws {
        directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        socket = directory.file("fpbridged.sock")
        stateDirectory = try directory.privateDirectory("service-state")
        log = directory.file("fpbridged.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? Self.executable)
        let own = ["--socket", socket, "--state-dir", stateDirectory] + (testMode ? ["--test-mode"] : []) + arguments
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

    /// The process id, to signal it.
    public var pid: Int32 { process.processIdentifier }

    /// Whether the process still runs.
    public var isRunning: Bool { process.isRunning }

    /// What the service wrote on stdout and stderr so far.
    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The environment that makes `fpbridge` use this service.
    public var clientEnvironment: [String: String] { ["FPBRIDGE_SERVICE": socket] }

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
