import FPCore
import Foundation

/// Child processes by posix_spawn and waitpid, for servers a test starts and stops:
/// Foundation's Process can miss a child's exit here and then waits for ever.
public enum Spawn {
    /// Starts `arguments` (the first is the executable), stdin from /dev/null, stdout and stderr to files.
    public static func start(_ arguments: [String], stdout: String, stderr: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = Fpbridge.childEnvironment([:]).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        // The child starts with no signal blocked and SIGTERM, SIGINT, SIGHUP and SIGPIPE at
        // their defaults: a child of a test thread with SIGTERM blocked ignored `stop`'s SIGTERM
        // and was killed only after its 5 s.
        var pid: pid_t = 0
        let status = SpawnAttributes.withCleanSignals(defaults: [SIGTERM, SIGINT, SIGHUP]) { attributes in
            posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environment)
        }
        guard status == 0 else { throw ServiceProcessError(message: "cannot start \(arguments[0]): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Runs a shell command line to its end; its status and output (through a file, not a pipe,
    /// so that a daemon it starts cannot hold our read end open).
    public static func shell(_ arguments: [String]) -> (status: Int32, output: String) {
        let path = NSTemporaryDirectory() + "fpbridge-shell-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        guard let pid = try? start(["/bin/sh", "-c", quoted], stdout: path, stderr: path + ".err") else { return (127, "cannot run /bin/sh") }
        defer { try? FileManager.default.removeItem(atPath: path + ".err") }
        let status = wait(pid)
        let output = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "") + ((try? String(contentsOfFile: path + ".err", encoding: .utf8)) ?? "")
        return (status, output)
    }

    /// Whether the child still runs (a child that ended is reaped here).
    public static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// SIGTERM, then SIGKILL after 5 s; reaps it.
    public static func stop(_ pid: pid_t) {
        guard isRunning(pid) else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while isRunning(pid), Date() < deadline { usleep(10_000) }
        if isRunning(pid) {
            kill(pid, SIGKILL)
            _ = wait(pid)
        }
    }

    /// Waits for the child's end; its exit status (128 + signal when killed).
    @discardableResult
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
