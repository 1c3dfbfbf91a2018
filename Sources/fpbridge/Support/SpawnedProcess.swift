import Glibc
import SystemPackage
import FPCore

/// A child process started with `posix_spawn`, its standard output a pipe to us: the
/// tools the doctor asks and the login demo's server. (Foundation's `Process` would
/// bring the rest of Foundation into the CLI and slow every start: BENCHMARKS.md.)
final class SpawnedProcess: Sendable {
    let pid: pid_t
    /// Our end of the child's standard output.
    private let output: Int32

    /// Starts `path` with `arguments` and this process's environment; its standard error
    /// is ours, or /dev/null when `quiet`. Throws the reason it could not start.
    init(_ path: String, _ arguments: [String], quiet: Bool) throws(SpawnError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnError(path: path, errno: errno) }
        // Neither end leaks into this or a later child beyond the dup onto its fd 1.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A tool or a server we start stops on SIGTERM, Ctrl-C or a closed pipe, whatever this
        // thread blocks or ignores.
        var pid = pid_t()
        let result = SpawnAttributes.withCleanSignals { attributes in
            posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        close(ends[1])
        guard result == 0 else {
            close(ends[0])
            throw SpawnError(path: path, errno: result)
        }
        self.pid = pid
        self.output = ends[0]
    }

    deinit { close(output) }

    /// The child's output up to and including the first line end (or all of it, at its end).
    func readLine() -> [UInt8] {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while !line.contains(0x0A), readSome(&byte, 1) == 1 { line.append(byte) }
        return line
    }

    /// The child's output to its end.
    func readAll() -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { readSome($0.baseAddress!, $0.count) }
            guard count > 0 else { return all }
            all += chunk[..<count]
        }
    }

    /// Waits for the child to end; its exit status, or nil when a signal ended it.
    func wait() -> Int32? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
    }

    /// Asks the child to end (SIGTERM) and waits for it.
    func terminate() {
        kill(pid, SIGTERM)
        _ = wait()
    }

    private func readSome(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        while true {
            let result = read(output, buffer, count)
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }
}

/// Why a child process could not be started.
struct SpawnError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var description: String { "cannot start \(path): \(Errno.last.description)" }
}
