import Foundation
import Synchronization

/// fprintd's clients against the real fpbridged on a private system bus: a `dbus-daemon` with a
/// configuration of the test's own (no service directories, so nothing, fprintd least of all,
/// is started by activation), python3-dbusmock's polkitd and logind, and `fpbridged --dbus on`
/// on libfprint's `virtual_device`. Stopped when the value goes away.
public final class FprintdBus: Sendable {
    /// The bus address, as `DBUS_SYSTEM_BUS_ADDRESS`.
    public let address: String
    /// The virtual reader's socket, for ``VirtualReaderDriver``.
    public let readerSocket: String
    /// fpbridged, when it is the daemon on the bus (a new process after ``restartService()``).
    public var service: ServiceProcess? { current.withLock { $0 } }
    private let current: Mutex<ServiceProcess?>
    /// Stopped processes, kept: the state directory lives in the first one's temporary directory.
    private let retired = Mutex<[ServiceProcess]>([])
    /// How fpbridged was started, for a restart.
    private let serviceStart: (environment: [String: String], arguments: [String])
    private let directory: TemporaryDirectory
    private let processes: [Process]

    /// Which daemon serves `net.reactivated.Fprint`.
    public enum Daemon: Sendable, CustomStringConvertible {
        /// fpbridged with `--dbus on`.
        case fpbridged
        /// Debian's fprintd itself (`/usr/libexec/fprintd`), for the same client against both.
        case fprintd

        public var description: String { self == .fpbridged ? "fpbridged" : "fprintd" }
    }

    /// The polkit actions fprintd's clients need.
    public static let allActions = ["net.reactivated.fprint.device.verify", "net.reactivated.fprint.device.enroll",
                                    "net.reactivated.fprint.device.setusername"]

    /// The bus policy `make install` installs (dbus/fpbridge-fprintd.conf).
    public static var installedPolicy: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("dbus/fpbridge-fprintd.conf").path
    }

    /// - Parameters:
    ///   - allowed: the polkit actions the mock grants.
    ///   - installedPolicy: owning names as on a system bus (nobody may, but as a policy file
    ///     allows) with the policy `make install` installs; otherwise anyone may own any name.
    ///   - ownershipRefused: the bus's policy refuses `net.reactivated.Fprint` to everyone, as a
    ///     bus that read the installed policy before the service's user existed refuses it to that
    ///     user; the daemon is then not waited for on the bus, only on its socket.
    ///   - readerEnvironment: where the daemon finds its readers (libfprint's `virtual_device` on
    ///     ``readerSocket`` by default; a ``USBTestbed``'s environment, say).
    ///   - reader: fpbridged's `--reader`.
    ///   - driver: the virtual reader of libfprint both daemons use (`virtual_device`,
    ///     `virtual_device_storage`, `virtual_image`) when no `readerEnvironment` is given.
    public init(_ daemon: Daemon = .fpbridged, allowed: [String] = FprintdBus.allActions, installedPolicy: Bool = false,
                ownershipRefused: Bool = false, readerEnvironment: [String: String]? = nil, reader: String? = nil, driver: String = "virtual_device",
                serviceArguments: [String] = []) async throws {
        directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let socket = directory.file("system_bus_socket")
        let config = directory.file("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            \(installedPolicy ? "" : #"<allow own="*"/>"#)
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
          </policy>
          <policy user="root">
            <allow own="org.freedesktop.PolicyKit1"/>
            <allow own="org.freedesktop.login1"/>
          </policy>
          \(installedPolicy ? "<include>\(Self.installedPolicy)</include>" : "")
          \(ownershipRefused ? #"<policy context="mandatory"><deny own="net.reactivated.Fprint"/></policy>"# : "")
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--config-file=\(config)", "--nofork", "--nopidfile", "--nosyslog"]
        bus.standardOutput = FileHandle.nullDevice
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        address = "unix:path=\(socket)"
        var processes = [bus]
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) {
            guard Date() < deadline else { throw ServiceProcessError(message: "dbus-daemon did not start") }
            try await Task.sleep(for: .milliseconds(20))
        }
        chmod(socket, 0o777)
        for template in ["polkitd", "logind"] {
            let mock = Process()
            mock.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            mock.arguments = ["-m", "dbusmock", "--system", "--template", template]
            mock.environment = ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": address]) { $1 }
            mock.standardOutput = FileHandle.nullDevice
            mock.standardError = FileHandle.nullDevice
            try mock.run()
            processes.append(mock)
        }
        readerSocket = TemporaryDirectory.socketPath()
        let readerVariable = "FP_" + driver.uppercased()
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": address]
        let actions = "[" + allowed.map { "'\($0)'" }.joined(separator: ",") + "]"
        while try await Self.gdbus(["call", "--system", "-d", "org.freedesktop.PolicyKit1", "-o", "/org/freedesktop/PolicyKit1/Authority",
                                    "-m", "org.freedesktop.DBus.Mock.SetAllowed", actions], environment).status != 0 {
            guard Date() < deadline else { throw ServiceProcessError(message: "dbusmock's polkitd did not start") }
            try await Task.sleep(for: .milliseconds(100))
        }
        while try await Self.gdbus(["call", "--system", "-d", "org.freedesktop.login1", "-o", "/org/freedesktop/login1",
                                    "-m", "org.freedesktop.login1.Manager.ListInhibitors"], environment).status != 0 {
            guard Date() < deadline else { throw ServiceProcessError(message: "dbusmock's logind did not start") }
            try await Task.sleep(for: .milliseconds(100))
        }
        switch daemon {
        case .fpbridged:
            serviceStart = ((readerEnvironment ?? [readerVariable: readerSocket]).merging(["DBUS_SYSTEM_BUS_ADDRESS": address]) { $1 },
                            ["--dbus", "on", "--reader", reader ?? "libfprint:\(driver)"] + serviceArguments)
            current = Mutex(try await ServiceProcess(environment: serviceStart.environment, arguments: serviceStart.arguments))
        case .fprintd:
            serviceStart = ([:], [])
            current = Mutex(nil)
            let fprintd = Process()
            fprintd.executableURL = URL(fileURLWithPath: "/usr/libexec/fprintd")
            fprintd.arguments = ["-t"]
            fprintd.environment = ProcessInfo.processInfo.environment.merging(
                ["DBUS_SYSTEM_BUS_ADDRESS": address, readerVariable: readerSocket,
                 "FP_DRIVERS_WHITELIST": driver, "STATE_DIRECTORY": try directory.privateDirectory("fprintd-state")]) { $1 }
            fprintd.standardOutput = FileHandle.nullDevice
            fprintd.standardError = FileHandle.nullDevice
            try fprintd.run()
            processes.append(fprintd)
        }
        self.processes = processes
        if !ownershipRefused { try await waitForName(daemon, until: deadline.addingTimeInterval(10)) }
    }

    /// Stops fpbridged and starts it again on the same state (a reboot, as far as it can tell),
    /// then waits until it holds the name again.
    public func restartService() async throws {
        guard let old = service else { return }
        old.stop()
        let new = try await ServiceProcess(environment: serviceStart.environment, arguments: serviceStart.arguments,
                                           stateDirectory: old.stateDirectory)
        current.withLock { $0 = new }
        retired.withLock { $0.append(old) }
        try await waitForName(.fpbridged, until: Date().addingTimeInterval(20))
    }

    private func waitForName(_ daemon: Daemon, until deadline: Date) async throws {
        let environment = self.environment
        // The socket answers before the name is taken; the tools need the name.
        while !(try await Self.gdbus(["call", "--system", "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus",
                                      "-m", "org.freedesktop.DBus.NameHasOwner", "net.reactivated.Fprint"], environment)
            .stdout.contains("true")) {
            guard Date() < deadline else {
                throw ServiceProcessError(message: "\(daemon) did not take net.reactivated.Fprint: \(service?.output ?? "")")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    deinit {
        service?.stop()
        for process in processes.reversed() where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The environment of a client of this bus.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

    /// Runs one of Debian's fprintd tools (`fprintd-list root`), or any command, on this bus,
    /// as `launcher` when given (setpriv for another uid). Killed after `timeout` seconds.
    public func run(_ arguments: [String], launcher: [String] = [], timeout: TimeInterval = 60) async throws -> CommandResult {
        try await Self.command(launcher + arguments, environment, timeout: timeout)
    }

    /// Runs the test client (`Tests/Helpers/fprintd-client.py`) with these steps.
    public func client(_ steps: [String], launcher: [String] = [], timeout: TimeInterval = 90) async throws -> CommandResult {
        try await run(["/usr/bin/python3", try clientScript(for: launcher)] + steps, launcher: launcher, timeout: timeout)
    }

    /// Starts the test client and returns at once; its lines are read with ``RunningClient``.
    public func startClient(_ steps: [String], launcher: [String] = []) throws -> RunningClient {
        try RunningClient(launcher + ["/usr/bin/python3", try clientScript(for: launcher)] + steps, environment: environment)
    }

    /// The client script as `launcher` (setpriv to another uid, say) can read it: a copy in this
    /// bus's folder when there is a launcher, since the clone may sit below a folder only its
    /// owner can enter (`mktemp -d`'s 0700 one).
    private func clientScript(for launcher: [String]) throws -> String {
        launcher.isEmpty ? Self.clientScript : try Fpbridge.copyForOtherUsers(Self.clientScript, in: directory)
    }

    /// Starts a command on this bus and returns at once (a tool that waits for a finger).
    public func start(_ arguments: [String], launcher: [String] = [], input: Pipe? = nil) throws -> RunningClient {
        try RunningClient(launcher + arguments, environment: environment, input: input)
    }

    /// Runs a tool that waits for the finger: once its output shows `after`, the virtual reader
    /// gets `SCAN ID` for each id, in order; then the tool's end.
    public func withScans(_ arguments: [String], after: String, scans: [String], launcher: [String] = []) async throws -> CommandResult {
        let tool = try start(arguments, launcher: launcher)
        if try await tool.waitFor(after) {
            for id in scans {
                try await VirtualReaderDriver.send(readerSocket, ["SCAN \(id)"])
                try await Task.sleep(for: .milliseconds(150))
            }
        }
        let status = try await tool.finish()
        return CommandResult(status: status, stdout: tool.output, stderr: "")
    }

    /// Runs a PAM client (pamtester, say) on this bus: once its output shows `prompt`, the
    /// virtual reader gets `SCAN ID` for each of `scans`; then the client's end, its status and
    /// everything it printed.
    public func conversation(_ arguments: [String], prompt: String, scans: [String]) async throws -> (status: Int32, output: String) {
        let client = try start(arguments)
        if !scans.isEmpty, try await client.waitFor(prompt, timeout: 15) {
            // The prompt is printed before the scan it asks for has started on the reader.
            try await Task.sleep(for: .milliseconds(200))
            for id in scans { try await scan(id) }
        }
        let status = try await client.finish(timeout: 40)
        return (status, client.output)
    }

    /// Enrolls `user`'s `finger` with Debian's `fprintd-enroll`, `scans` scans of `print` (five on
    /// `virtual_device`; six on `virtual_device_storage`, whose first is the duplicate check).
    public func enroll(_ finger: String = "right-index-finger", print: String = "p1", user: String = "root",
                       scans: Int = 5) async throws -> CommandResult {
        try await withScans(["/usr/bin/fprintd-enroll", "-f", finger, user], after: "Enrolling", scans: Array(repeating: print, count: scans))
    }

    /// Sends `SCAN ID` commands to the virtual reader, once it listens.
    public func scan(_ ids: String...) async throws {
        try await VirtualReaderDriver.send(readerSocket, ids.map { "SCAN \($0)" })
    }

    /// logind announces sleep (true) or waking (false).
    public func prepareForSleep(_ start: Bool) async throws {
        let result = try await Self.gdbus(["call", "--system", "-d", "org.freedesktop.login1", "-o", "/org/freedesktop/login1",
                                           "-m", "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.login1.Manager",
                                           "PrepareForSleep", "b", start ? "[<true>]" : "[<false>]"], environment)
        guard result.status == 0 else { throw ServiceProcessError(message: "EmitSignal failed: \(result.stderr)") }
    }

    /// Waits until no delay inhibitor is held: the daemon announced it is ready for sleep
    /// (fprintd and fpbridged each hold one while awake and drop it once prepared).
    public func waitUntilReadyForSleep(timeout: TimeInterval = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try await Self.gdbus(["call", "--system", "-d", "org.freedesktop.login1", "-o", "/org/freedesktop/login1",
                                    "-m", "org.freedesktop.login1.Manager.ListInhibitors"], environment).stdout.contains("'delay'") {
            guard Date() < deadline else { throw ServiceProcessError(message: "the daemon kept its sleep inhibitor") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Lets a test client go on past its `wait:Proceed` step (a signal on the bus, which the
    /// client hears as it hears the daemon's): the test did what had to come in between.
    public func proceed() async throws {
        let result = try await Self.gdbus(["emit", "--system", "-o", "/net/reactivated/Fprint/Test",
                                           "-s", "net.reactivated.Fprint.Device.Proceed"], environment)
        guard result.status == 0 else { throw ServiceProcessError(message: "emit Proceed failed: \(result.stderr)") }
    }

    /// Makes the polkit mock take `seconds` over every answer (it still says yes): a password
    /// dialog left open, as the daemon sees it.
    public func slowPolkit(_ seconds: Double) async throws {
        let result = try await Self.gdbus(["call", "--system", "-d", "org.freedesktop.PolicyKit1", "-o", "/org/freedesktop/PolicyKit1/Authority",
                                           "-m", "org.freedesktop.DBus.Mock.AddMethod", "org.freedesktop.PolicyKit1.Authority",
                                           "CheckAuthorization", "(sa{sv})sa{ss}us", "(bba{ss})",
                                           "import time, pathlib; pathlib.Path('\(polkitAsked)').touch(); "
                                           + "time.sleep(\(seconds)); ret = (True, False, {})"], environment)
        guard result.status == 0 else { throw ServiceProcessError(message: "AddMethod failed: \(result.stderr)") }
    }

    /// Marked by the slow CheckAuthorization of ``slowPolkit(_:)`` as it begins.
    private var polkitAsked: String { directory.file("polkit-asked") }

    /// Whether the slow polkitd of ``slowPolkit(_:)`` has been asked (it marks a file as it begins).
    public var polkitWasAsked: Bool { FileManager.default.fileExists(atPath: polkitAsked) }

    /// The user's biometric lockout status as fpbridged's socket API reports it.
    public func lockout(_ user: String) async throws -> [String: Any] {
        guard let service else { return [:] }
        return try await service.request("GET", "/v1/status?user=\(user)").json["biometry"] as? [String: Any] ?? [:]
    }

    public static var clientScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Helpers/fprintd-client.py").path
    }

    static func gdbus(_ arguments: [String], _ environment: [String: String]) async throws -> CommandResult {
        try await command(["/usr/bin/gdbus"] + arguments, environment, timeout: 10)
    }

    static func command(_ arguments: [String], _ environment: [String: String], timeout: TimeInterval) async throws -> CommandResult {
        try await Fpbridge.runCommand(arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                      timeout: timeout)
    }
}

/// A client process still running, whose output is read as it comes.
public final class RunningClient: @unchecked Sendable {
    private let process: Process
    private let lock = NSLock()
    private var buffer = ""

    /// - Parameter input: the client's standard input, which the test writes to (and keeps open
    ///   as long as it likes); none: /dev/null.
    public init(_ arguments: [String], environment: [String: String], input: Pipe? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        if let input { process.standardInput = input } else { process.standardInput = FileHandle.nullDevice }
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.buffer += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Everything printed so far.
    public var output: String { lock.withLock { buffer } }

    /// Waits until the output contains `text` (at most `timeout` seconds); false if it never does.
    public func waitFor(_ text: String, timeout: TimeInterval = 30) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !output.contains(text) {
            guard Date() < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Waits until `count(output)` reaches `count` (at most `timeout` seconds); false if it never
    /// does. For a client that repeats a step: the nth final status, say.
    public func waitFor(count: Int, timeout: TimeInterval = 30, _ counted: (String) -> Int) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while counted(output) < count {
            guard Date() < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Waits for the process to end (at most `timeout` seconds, then kills it); its exit status.
    public func finish(timeout: TimeInterval = 60) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        try await blocking { self.process.waitUntilExit() }
        try await Task.sleep(for: .milliseconds(50))
        return process.terminationStatus
    }

    /// Kills the client (SIGKILL): it leaves the bus without a word.
    public func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }
}
