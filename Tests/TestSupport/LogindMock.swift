import Foundation

/// A private D-Bus bus standing in for the system bus, with python3-dbusmock's logind on it:
/// what `fpbridged` sees of suspend and resume in tests. Stopped when the value goes away.
public final class LogindMock: Sendable {
    /// The bus address to give the service as `DBUS_SYSTEM_BUS_ADDRESS`.
    public let address: String
    private let bus: Process
    private let logind: Process

    /// How `Inhibit` is answered.
    public enum Inhibit: Sendable {
        /// At once, by python3-dbusmock's logind template.
        case atOnce
        /// Only when the test says (``answerInhibits()``, ``refuseInhibits()``), by
        /// Tests/Helpers/held-logind.py: logind slow to answer.
        case whenTold
    }

    public init(inhibit: Inhibit = .atOnce) async throws {
        let bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--session", "--print-address=1", "--nofork", "--nopidfile"]
        let output = Pipe()
        bus.standardOutput = output
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        self.bus = bus
        let line = try await firstLine(of: output)
        address = line
        let logind = Process()
        logind.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        switch inhibit {
        case .atOnce: logind.arguments = ["-m", "dbusmock", "--system", "--template", "logind"]
        case .whenTold: logind.arguments = [Self.heldLogindScript, address]
        }
        logind.environment = ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": address]) { $1 }
        logind.standardOutput = FileHandle.nullDevice
        logind.standardError = FileHandle.nullDevice
        try logind.run()
        self.logind = logind
        let deadline = Date().addingTimeInterval(15)
        while try await call("org.freedesktop.login1.Manager.ListInhibitors").status != 0 {
            guard Date() < deadline else { throw ServiceProcessError(message: "dbusmock's logind did not start") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    private static var heldLogindScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Helpers/held-logind.py").path
    }

    deinit {
        for process in [logind, bus] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(10_000) }
        }
    }

    /// logind announces sleep (true) or waking (false), as `PrepareForSleep`.
    public func prepareForSleep(_ start: Bool) async throws {
        let result = try await call("org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.login1.Manager", "PrepareForSleep",
                                    "b", start ? "[<true>]" : "[<false>]")
        guard result.status == 0 else { throw ServiceProcessError(message: "EmitSignal failed: \(result.stderr)") }
    }

    /// Who holds an inhibitor now (the `who` field of each).
    public func inhibitors() async throws -> String {
        try await call("org.freedesktop.login1.Manager.ListInhibitors").stdout
    }

    /// How many `Inhibit` calls wait for an answer (``Inhibit/whenTold`` only).
    public func waitingInhibits() async throws -> Int {
        let result = try await call("org.freedesktop.DBus.Mock.WaitingInhibits")
        // gdbus prints "(uint32 N,)".
        guard result.status == 0, let count = result.stdout.split(separator: " ").last.flatMap({ Int($0.filter(\.isNumber)) }) else {
            throw ServiceProcessError(message: "WaitingInhibits failed: \(result.stderr)")
        }
        return count
    }

    /// Gives every waiting `Inhibit` call its descriptor (``Inhibit/whenTold`` only).
    public func answerInhibits() async throws {
        let result = try await call("org.freedesktop.DBus.Mock.AnswerInhibits")
        guard result.status == 0 else { throw ServiceProcessError(message: "AnswerInhibits failed: \(result.stderr)") }
    }

    /// Answers every waiting `Inhibit` call with AccessDenied (``Inhibit/whenTold`` only).
    public func refuseInhibits() async throws {
        let result = try await call("org.freedesktop.DBus.Mock.RefuseInhibits")
        guard result.status == 0 else { throw ServiceProcessError(message: "RefuseInhibits failed: \(result.stderr)") }
    }

    private func call(_ method: String, _ arguments: String...) async throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        process.arguments = ["call", "--system", "-d", "org.freedesktop.login1", "-o", "/org/freedesktop/login1", "-m", method]
            + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": address]) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        async let out = blocking { stdout.fileHandleForReading.readDataToEndOfFile() }
        async let err = blocking { stderr.fileHandleForReading.readDataToEndOfFile() }
        let (outData, errData) = try await (out, err)
        try await blocking { process.waitUntilExit() }
        return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}
