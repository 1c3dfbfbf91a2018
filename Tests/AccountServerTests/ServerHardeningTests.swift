@testable import FPAccountServer
import Foundation
import Testing
import TestSupport

/// Issue 28 §6: the login server locked down as fpbridge and fpbridged are, TLS to PostgreSQL
/// as the URL asks (proved against a role the test cluster admits over TLS only), plain HTTP
/// on addresses that really are loopback, and a SQLite file that is never readable by others.
@Suite struct ServerHardeningTests {
    // MARK: No core dump, no tracing

    /// RLIMIT_CORE 0 even when started with core dumps allowed, and not dumpable: the kernel
    /// then gives /proc/PID/status and /proc/PID/mem to root, whoever runs the server, so that
    /// another process of its user can neither read its memory nor ptrace it. As root the test
    /// runs the server as nobody, where that change of owner shows.
    @Test func serverLeavesNoCoreDumpAndIsNotTraceable() async throws {
        let directory = TemporaryDirectory()
        let isRoot = getuid() == 0
        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        if isRoot {
            // nobody passes through the test's directory to its own.
            #expect(chmod(directory.path, 0o711) == 0 && chown(data, 65534, 65534) == 0)
        }
        // Soft and hard limits as high as this user may set them: the server alone brings them to 0.
        let coreLimit = isRoot ? "ulimit -c unlimited" : #"ulimit -S -c "$(ulimit -H -c)""#
        let asUser = isRoot ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let server = try await LoginServerProcess(
            database: data + "/server.sqlite",
            launcher: ["/bin/bash", "-c", "\(coreLimit) && exec \(asUser)\"$@\"", "launcher"])
        let limits = try String(contentsOfFile: "/proc/\(server.processID)/limits", encoding: .utf8)
        let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") } ?? ""
        #expect(Array(core.split(whereSeparator: \.isWhitespace).dropFirst(4).prefix(2)) == ["0", "0"], "\(core)")
        let runsAs = isRoot ? uid_t(65534) : getuid()
        #expect(runsAs != 0)
        for file in ["status", "mem"] {
            var status = stat()
            #expect(stat("/proc/\(server.processID)/\(file)", &status) == 0)
            #expect(status.st_uid == 0, "/proc/PID/\(file) belongs to \(status.st_uid): the server is dumpable")
        }
    }

    // MARK: PostgreSQL over TLS

    /// The server reaches the TLS-only role with sslmode require or prefer (TLS unverified) and
    /// serves: registering an account goes through the database.
    @Test(arguments: ["require", "prefer"])
    func tlsOnlyRoleIsReachedWithTLS(mode: String) async throws {
        let server = try await LoginServerProcess(database: try TestPostgres.newTLSOnlyDatabase() + "?sslmode=\(mode)")
        try await expectServes(server)
    }

    /// verify-full with the cluster's CA, by IP address (checked against the certificate's IP
    /// subject alternative name) and by name.
    @Test(arguments: ["127.0.0.1", "localhost"])
    func verifyFullWithTheClustersCAConnects(host: String) async throws {
        let ca = try TestPostgres.certificateAuthority()
        let url = try TestPostgres.newTLSOnlyDatabase().replacingOccurrences(of: "@127.0.0.1:", with: "@\(host):")
        let server = try await LoginServerProcess(database: url + "?sslmode=verify-full&sslrootcert=\(ca)")
        try await expectServes(server)
    }

    /// Without TLS the cluster refuses the role: the server does not start, at once, and says why.
    @Test func tlsOnlyRoleWithoutTLSStopsTheStart() throws {
        let (status, output) = refusal(["--database", try TestPostgres.newTLSOnlyDatabase() + "?sslmode=disable"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("cannot connect to PostgreSQL"), "\(output)")
        #expect(output.contains("sslmode=disable") && output.contains("pg_hba.conf rejects connection"), "\(output)")
    }

    /// verify-full with a CA that did not sign the cluster's certificate: refused.
    @Test func verifyFullWithAnotherCAIsRefused() throws {
        let directory = TemporaryDirectory()
        let other = directory.file("other-ca.pem")
        let made = Spawn.shell(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                "-days", "1", "-subj", "/CN=not the cluster's CA", "-keyout", directory.file("other-ca.key"), "-out", other])
        try #require(made.status == 0, "\(made.output)")
        let (status, output) = refusal(["--database", try TestPostgres.newTLSOnlyDatabase() + "?sslmode=verify-full&sslrootcert=\(other)"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("cannot connect to PostgreSQL") && output.contains("sslmode=verify-full"), "\(output)")
        #expect(output.contains("CERTIFICATE_VERIFY_FAILED"), "\(output)")
    }

    /// A CA file that cannot be used, an sslmode or a parameter this server does not know: each
    /// stops the start, naming what was wrong, before any connection (port 1: nothing listens).
    @Test(arguments: [
        ("?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem", "cannot read the CA file sslrootcert=/nonexistent/ca.pem"),
        ("?sslmode=verify-full&sslrootcert=NOT-PEM", "sslrootcert=NOT-PEM holds no PEM certificate"),
        ("?sslmode=allow", "sslmode 'allow' is not one of disable, prefer, require, verify-ca, verify-full"),
        ("?sslmode=verify_full", "sslmode 'verify_full' is not one of"),
        ("?ssl_mode=require", "unknown parameter 'ssl_mode'"),
        ("?sslrootcert=/etc/ssl/ca.pem", "sslrootcert needs sslmode=verify-full"),
    ])
    func unusableTLSParametersStopTheStart(query: String, message: String) throws {
        let directory = TemporaryDirectory()
        let notPEM = directory.file("not.pem")
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
        let url = "postgres://tlsonly@127.0.0.1:1/fpbridge" + query.replacingOccurrences(of: "NOT-PEM", with: notPEM)
        let (status, output) = refusal(["--database", url])
        #expect(status == 1, "\(output)")
        #expect(output.contains(message.replacingOccurrences(of: "NOT-PEM", with: notPEM)), "\(output)")
    }

    // MARK: Loopback by address

    /// Loopback is what the host resolves to, not how it is spelt: a name that starts with
    /// "127." and does not resolve (.invalid never does) is refused, and no DNS is asked about
    /// an address.
    @Test func loopbackIsDecidedByTheResolvedAddress() {
        for host in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "localhost"] {
            #expect(ServerConfiguration.isLoopback(host), "\(host)")
        }
        for host in ["127.0.0.1.nip.invalid", "127.x.invalid", "0.0.0.0", "::", "10.1.2.3", "::ffff:10.1.2.3", ""] {
            #expect(!ServerConfiguration.isLoopback(host), "\(host)")
        }
        #expect(LoopbackHost.verdict(for: "0.0.0.0") == .notLoopback(address: "0.0.0.0"))
    }

    @Test func unresolvableHostIsRefusedForPlainHTTP() {
        let directory = TemporaryDirectory()
        let (status, output) = refusal(["--host", "127.0.0.1.nip.invalid", "--database", directory.file("server.sqlite")])
        #expect(status != 0 && status != 124, "\(output)")
        #expect(output.contains("--host 127.0.0.1.nip.invalid does not resolve"), "\(output)")
    }

    // MARK: The SQLite file

    /// The file is 0600 from the instant it exists, whatever the umask: watched with inotify as
    /// SQLiteDatabase creates it (with this process's umask, 022 as a rule, SQLite alone makes it
    /// 0644 until a chmod afterwards).
    @Test func sqliteFileIsPrivateFromItsCreation() async throws {
        let directory = TemporaryDirectory()
        let watcher = try CreationWatcher(directory: directory.path, name: "born.sqlite")
        let database = try SQLiteDatabase(path: directory.file("born.sqlite"))
        let mode = watcher.modeAtCreation(within: 10)
        await database.close()
        #expect(mode == 0o600, "created \(mode.map { String($0, radix: 8) } ?? "unseen")")
    }

    /// Started by a shell with umask 000, the server's file and SQLite's -wal and -shm are 0600.
    @Test func sqliteFilesArePrivateUnderUmask000() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("server.sqlite")
        let server = try await LoginServerProcess(database: path, launcher: ["/bin/bash", "-c", #"umask 000 && exec "$@""#, "launcher"])
        try await expectServes(server)
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            #expect(stat(file, &status) == 0, "\(file)")
            #expect(status.st_mode & 0o777 == 0o600, "\(file): \(String(status.st_mode & 0o777, radix: 8))")
        }
    }

    /// A symbolic link at the database path is refused (SQLite would follow it to a file the
    /// operator did not name) and its target left alone; so are a FIFO and a directory.
    @Test(arguments: ["link", "fifo", "directory"])
    func databasePathThatIsNoPlainFileIsRefused(kind: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("server.sqlite")
        let target = directory.file("elsewhere.sqlite")
        let expected: String
        switch kind {
        case "link":
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            expected = "is a symbolic link"
        case "fifo":
            #expect(mkfifo(path, 0o600) == 0)
            expected = "is not a regular file"
        default:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            expected = "is a directory"
        }
        let (status, output) = refusal(["--database", path])
        #expect(status == 1, "\(output)")
        #expect(output.contains("the SQLite database \(path) \(expected)"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    // MARK: Helpers

    /// Runs the server expecting it not to start: its exit status (124: still running after
    /// 30 s, then stopped) and what it wrote.
    private func refusal(_ arguments: [String]) -> (status: Int32, output: String) {
        Spawn.shell(["timeout", "30", LoginServerProcess.executable, "--port", "0", "--password-cost", "10"] + arguments)
    }

    /// An account registers: the server answers from its database.
    private func expectServes(_ server: LoginServerProcess) async throws {
        let answer = try await server.request("POST", "/v1/accounts", json: ["username": "tls-\(UUID().uuidString.prefix(8))", "password": "correct horse battery"])
        #expect(answer.status == 201, "\(String(decoding: answer.body, as: UTF8.self)) \(server.logText)")
    }
}

/// The mode a file has the moment it appears in a directory: inotify reports its creation and a
/// thread stats it at once, before whoever created it can chmod it.
private final class CreationWatcher: Sendable {
    private let descriptor: Int32
    private let seen = DispatchSemaphore(value: 0)
    private let result = LockedMode()

    init(directory: String, name: String) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0, inotify_add_watch(descriptor, directory, UInt32(IN_CREATE)) >= 0 else {
            throw WatchFailure(reason: String(cString: strerror(errno)))
        }
        let (descriptor, seen, result) = (descriptor, seen, result)
        // The thread owns the descriptor and closes it: it may outlive the watcher by its deadline.
        Thread.detachNewThread {
            defer {
                close(descriptor)
                seen.signal()
            }
            let deadline = Date().addingTimeInterval(10)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let count = read(descriptor, &buffer, buffer.count)
                var offset = 0
                // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
                while count > 0, offset + 16 <= count {
                    let length = buffer[offset + 12..<offset + 16].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
                    let bytes = buffer[offset + 16..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                    if String(decoding: bytes, as: UTF8.self) == name {
                        var status = stat()
                        if stat(directory + "/" + name, &status) == 0 { result.set(status.st_mode & 0o777) }
                        return
                    }
                    offset += 16 + length
                }
            }
        }
    }

    /// The mode seen at creation; nil when no creation was seen within `seconds`.
    func modeAtCreation(within seconds: Double) -> mode_t? {
        _ = seen.wait(timeout: .now() + seconds)
        return result.get()
    }
}

private struct WatchFailure: Error {
    let reason: String
}

/// A mode set by the watcher's thread and read by the test.
private final class LockedMode: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var mode: mode_t?

    func set(_ value: mode_t) { lock.withLock { mode = value } }
    func get() -> mode_t? { lock.withLock { mode } }
}
