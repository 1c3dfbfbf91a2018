import Foundation
import Synchronization

/// The kiosk's world for a test: a real `fpbridged` in test mode on libfprint's `virtual_image`
/// (its socket at a fixed path, so that it can be stopped and started again under a running
/// kiosk), whose kiosk group is `nogroup`, and the prints enrolled through the CLI.
public final class KioskRig: Sendable {
    public let directory = TemporaryDirectory()
    /// fpbridged's socket.
    public let socket: String
    /// fpbridged's state directory.
    public let state: String
    /// The virtual reader's socket, where the test plays the finger.
    public let readerSocket = TemporaryDirectory.socketPath()
    private let service = Mutex<pid_t?>(nil)

    /// The kiosk as `nobody`, whose group `nogroup` is the service's kiosk group: it may
    /// identify and check PINs, as a kiosk account in `fpbridge-kiosk` may, and nothing more.
    public static let asKioskMember = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

    public init() throws {
        chmod(directory.path, 0o755)
        socket = directory.file("fpbridged.sock")
        state = try directory.privateDirectory("state")
    }

    deinit { stopService() }

    /// Starts fpbridged (again) and waits until its socket answers.
    public func startService() async throws {
        let log = directory.file("fpbridged.log")
        let pid = try Spawn.start(["/usr/bin/env", "FP_VIRTUAL_IMAGE=\(readerSocket)", "FP_DRIVERS_WHITELIST=virtual_image",
                                   ServiceProcess.executable, "--socket", socket, "--state-dir", state, "--test-mode",
                                   "--reader", "libfprint:virtual_image", "--kiosk-group", "nogroup", "--verbose"],
                                  stdout: log + ".out", stderr: log)
        service.withLock { $0 = pid }
        let deadline = Date().addingTimeInterval(20)
        while !ServiceProcess.accepts(socket) {
            guard Spawn.isRunning(pid), Date() < deadline else {
                throw ServiceProcessError(message: "fpbridged did not start: \(serviceLog)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Stops fpbridged (SIGTERM, then SIGKILL).
    public func stopService() {
        if let pid = service.withLock({ pid in defer { pid = nil }; return pid }) { Spawn.stop(pid) }
    }

    public var serviceLog: String { (try? String(contentsOfFile: directory.file("fpbridged.log"), encoding: .utf8)) ?? "" }

    /// Sets `user`'s passcode to `pin` and enrolls their right index from `image` (five frames).
    public func enroll(_ user: String, image: String, pin: String = "2468") async throws {
        let client = ["FPBRIDGE_SERVICE": socket]
        let common = ["--json", "--state-dir", state, "--user", user]
        let set = try await Fpbridge.run(common + ["passcode", "set", "--passcode-stdin"], environment: client, input: pin + "\n")
        guard set.status == 0 else { throw ServiceProcessError(message: "passcode set for \(user): \(set.stdout)\(set.stderr)") }
        let result = try await VirtualReaderDriver.playEnrollment(readerSocket, image: image) { watcher in
            try await Fpbridge.run(common + ["enroll", "--finger", "right-index", "--passcode-stdin"],
                                   environment: client, input: pin + "\n", onStderr: watcher)
        }
        guard result.status == 0 else { throw ServiceProcessError(message: "enroll \(user): \(result.stdout)\(result.stderr)") }
    }

    /// Gives `user` an account at `server` and binds this fpbridged to it (`fpbridge account
    /// register` and `bind`), as the user would: the kiosk can then sign them in there.
    public func bind(_ user: String, to server: LoginServerProcess) async throws {
        let account = ["--server", server.address, "--account", user]
        for step in [["account", "register", "--password-stdin"], ["account", "bind", "--password-stdin", "--device-name", "Kiosk"]] {
            let result = try await Fpbridge.run(["--json", "--state-dir", state, "--user", user] + step + account,
                                                environment: ["FPBRIDGE_SERVICE": socket], input: "correct horse battery\n")
            guard result.status == 0 else { throw ServiceProcessError(message: "\(step) for \(user): \(result.stdout)\(result.stderr)") }
        }
    }

    /// One touch of the finger in `image`.
    public func touch(_ image: String) async throws {
        try await VirtualReaderDriver.sendImages(readerSocket, [image], lead: 0.3)
    }

    /// The reader pulled out.
    public func unplug() async throws {
        try await VirtualReaderDriver.unplugImageReader(readerSocket)
    }
}

/// A real `fpbridge-kiosk` on a free loopback port, and a page's view of it: its event stream
/// read as it comes (by curl, as a browser's EventSource reads it).
public final class KioskProcess: Sendable {
    /// `http://127.0.0.1:PORT/`.
    public let url: String
    private let directory = TemporaryDirectory()
    private let pid: pid_t
    private let watcher: pid_t

    public static var executable: String {
        URL(fileURLWithPath: Fpbridge.executable).deletingLastPathComponent().appendingPathComponent("fpbridge-kiosk").path
    }

    /// Starts the kiosk for fpbridged at `service`; `launcher` runs it as another user, and then
    /// this test's user is the page's (`--page-user`), as a browser's user is on a kiosk whose
    /// service runs as an account of its own: the test's curl and Chromium are the page.
    public init(service: String, arguments: [String] = [], launcher: [String] = []) async throws {
        chmod(directory.path, 0o755)
        let output = directory.file("kiosk.out"), log = directory.file("kiosk.log")
        let page = launcher.isEmpty ? [] : ["--page-user", String(geteuid())]
        pid = try Spawn.start(launcher + [Self.executable, "--service", service, "--listen", "127.0.0.1:0", "--verbose"] + page + arguments,
                              stdout: output, stderr: log)
        let deadline = Date().addingTimeInterval(20)
        var found: String?
        while found == nil {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let range = text.range(of: "serving "), let end = text[range.upperBound...].firstIndex(of: " ") {
                found = String(text[range.upperBound..<end])
                break
            }
            guard Spawn.isRunning(pid), Date() < deadline else {
                Spawn.stop(pid)
                throw ServiceProcessError(message: "fpbridge-kiosk did not start: \(text)\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        url = found!
        watcher = try Spawn.start(["/usr/bin/curl", "-sN", url + "events"], stdout: directory.file("events"), stderr: directory.file("events.err"))
    }

    deinit {
        Self.stopReading(watcher)
        Spawn.stop(pid)
    }

    /// Ends an event stream's reader (curl) at once. It inherits this process's blocked signals,
    /// SIGTERM among them, so `Spawn.stop` would wait out its 5 s before SIGKILL; a reader has
    /// nothing to save.
    public static func stopReading(_ reader: pid_t) {
        guard Spawn.isRunning(reader) else { return }
        kill(reader, SIGKILL)
        Spawn.wait(reader)
    }

    /// The kiosk's stderr so far.
    public var log: String { (try? String(contentsOfFile: directory.file("kiosk.log"), encoding: .utf8)) ?? "" }

    /// Every snapshot the event stream carried so far, in order.
    public var snapshots: [[String: Any]] {
        let text = (try? String(contentsOfFile: directory.file("events"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard line.hasPrefix("data: ") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8))) as? [String: Any]
        }
    }

    /// Waits for a snapshot in `state` that comes after the first `skipping` snapshots; nil
    /// when none came within `seconds`. `where` narrows it further.
    public func next(_ state: String, skipping: Int = 0, within seconds: TimeInterval = 30,
                     where matches: @Sendable ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any]? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let found = snapshots.dropFirst(skipping).first(where: { $0["state"] as? String == state && matches($0) }) {
                return found
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// `POST path` with a JSON body; the status and the answer's JSON.
    public func post(_ path: String, _ json: String) async throws -> (status: Int, body: [String: Any]) {
        let (status, body) = try await request("POST", path, json: json)
        let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        return (status, object)
    }

    /// `METHOD path` by curl, run by `launcher` (another user: ``asUser(_:)``), cut off after
    /// `seconds` (an event stream does not end by itself); the status and the body as it came.
    public func request(_ method: String, _ path: String, json: String? = nil, launcher: [String] = [],
                        seconds: Double = 25) async throws -> (status: Int, body: String) {
        var curl = ["/usr/bin/curl", "-sN", "--max-time", String(seconds), "-X", method, "-w", "\n%{http_code}"]
        if let json { curl += ["-H", "Content-Type: application/json", "--data-binary", json] }
        let result = try await Fpbridge.runCommand(launcher + curl + [url + path.drop { $0 == "/" }],
                                                   environment: ProcessInfo.processInfo.environment, timeout: seconds + 10)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.last.flatMap { Int($0) } ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// Runs a command as the local user `uid` (group `uid` too, no other groups).
    public static func asUser(_ uid: uid_t) -> [String] {
        ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
    }

    /// The event stream as `launcher` reads it into `file`, from now until ``stopReading(_:)`` of the
    /// pid returned: a page of another user watching throughout.
    public func startReadingEvents(launcher: [String], into file: String) throws -> pid_t {
        try Spawn.start(launcher + ["/usr/bin/curl", "-sN", "-w", "\n%{http_code}", url + "events"], stdout: file, stderr: file + ".err")
    }
}
