import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `fpbridge-server` started for a test on a free loopback port, with a SQLite file
/// in a temporary directory or a database of the test PostgreSQL; stopped when the value goes away.
public final class LoginServerProcess: Sendable {
    /// Where it listens (`http://127.0.0.1:PORT`).
    public let address: String
    /// What assertions must name: `--origin`, or the address.
    public let origin: String
    private let directory: TemporaryDirectory
    private let pid: pid_t
    private let log: String
    private let clock: String?

    /// The server's process id (`launcher` must exec it, so that this is the server's own).
    public var processID: pid_t { pid }

    /// The `fpbridge-server` built beside `fpbridge`.
    public static var executable: String {
        URL(fileURLWithPath: Fpbridge.executable).deletingLastPathComponent().appendingPathComponent("fpbridge-server").path
    }

    /// Starts the server on `database` (a SQLite path or a PostgreSQL URL; nil: a new SQLite file)
    /// with `arguments` added, and waits until it says where it listens. `launcher` (a full path
    /// first) runs before it and ends by exec'ing its arguments: `bash -c 'umask 000; exec "$@"'`,
    /// `setpriv` to another user.
    ///
    /// Without a launcher the server reads its clock through a file of this test's
    /// (``advanceClock(by:)``), set at start to the beginning of the next minute: rate limits
    /// count in minute windows, and a case that counts up to a limit then has a whole window.
    public init(database: String? = nil, arguments: [String] = [], launcher: [String] = []) async throws {
        directory = TemporaryDirectory()
        log = directory.file("server.log")
        clock = launcher.isEmpty ? directory.file("clock") : nil
        let output = directory.file("server.out")
        var all = [Self.executable, "--port", "0", "--database", database ?? directory.file("server.sqlite"), "--password-cost", "10"]
            + arguments
        if let clock {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try String(60_000 - now % 60_000 + 100).write(toFile: clock, atomically: true, encoding: .utf8)
            all += ["--test-clock-offset-file", clock]
        }
        pid = try Spawn.start(launcher + all, stdout: output, stderr: log)
        let deadline = Date().addingTimeInterval(30)
        var words: [Substring] = []
        while words.count < 4 {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on "), text.hasSuffix("\n") {
                // "ADDRESS for origin ORIGIN"
                words = text[range.upperBound...].split(whereSeparator: \.isWhitespace)
                if words.count >= 4 { break }
            }
            guard Spawn.isRunning(pid), Date() < deadline else {
                let log = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                Spawn.stop(pid)
                throw ServiceProcessError(message: "fpbridge-server did not start: \(text) \(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        address = String(words[0])
        origin = String(words[3])
    }

    deinit { stop() }

    /// The server's clock now, milliseconds since 1970.
    public var now: Int64 {
        Int64(Date().timeIntervalSince1970 * 1000) + (clock.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }.flatMap { Int64($0) } ?? 0)
    }

    /// Moves the server's clock forward: expiry and rate windows without sleeping.
    public func advanceClock(by seconds: Double) throws {
        guard let clock else { throw ServiceProcessError(message: "this server was started with a launcher and keeps the real clock") }
        let now = Int64(try String(contentsOfFile: clock, encoding: .utf8)) ?? 0
        try String(now + Int64(seconds * 1000)).write(toFile: clock, atomically: true, encoding: .utf8)
    }

    /// What the server wrote on stderr so far.
    public var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Whether the process still runs.
    public var isRunning: Bool { Spawn.isRunning(pid) }

    /// SIGTERM, then SIGKILL after 5 s.
    public func stop() { Spawn.stop(pid) }

    /// An HTTP answer: its status and its body as a JSON object (empty when it is not one).
    public struct Answer: Sendable {
        public let status: Int
        public let body: Data
        public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        public var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        public var attemptsLeft: Int? { (json["error"] as? [String: Any])?["attemptsLeft"] as? Int }
    }

    /// `METHOD path` with `body` (raw bytes), a bearer token and `headers`.
    public func request(_ method: String, _ path: String, body: Data? = nil, token: String? = nil,
                        headers: [String: String] = [:]) async throws -> Answer {
        var request = URLRequest(url: URL(string: address + path)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.timeoutInterval = 30
        let (data, response) = try await URLSession.shared.data(for: request)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    /// The same with an Encodable body.
    public func request(_ method: String, _ path: String, json: some Encodable, token: String? = nil,
                        headers: [String: String] = [:]) async throws -> Answer {
        try await request(method, path, body: try JSONEncoder().encode(json), token: token, headers: headers)
    }
}

/// The PostgreSQL of the tests: `FPBRIDGE_TEST_POSTGRES` (as `scripts/test.sh` starts it),
/// or one this process starts with `scripts/postgres.sh`, stopped when it exits.
public enum TestPostgres {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    private static let base: Result<String, ServiceProcessError> = {
        if let url = ProcessInfo.processInfo.environment["FPBRIDGE_TEST_POSTGRES"], !url.isEmpty { return .success(url) }
        // Under /tmp whatever TMPDIR says: the server's socket path must fit in 107 bytes, and the
        // postgres user must reach it (a TMPDIR under /root it could not).
        let directory = "/tmp/fpbridge-test-postgres-\(getpid())"
        // Stopped and removed by the script once this process is gone.
        let result = Spawn.shell(["bash", root + "/scripts/postgres.sh", "start", directory, "\(getpid())"])
        guard result.status == 0 else { return .failure(ServiceProcessError(message: "cannot start PostgreSQL: \(result.output)")) }
        return .success(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    /// A new empty database's URL.
    public static func newDatabase() throws -> String {
        try newDatabase(owner: nil)
    }

    /// The role `scripts/postgres.sh` lets in over TLS only (pg_hba: hostnossl … reject).
    public static let tlsOnlyRole = "tlsonly"

    /// A new empty database owned by `tlsOnlyRole`, and its URL as that role, without
    /// parameters: the caller adds `?sslmode=…`.
    public static func newTLSOnlyDatabase() throws -> String {
        try newDatabase(owner: tlsOnlyRole)
    }

    /// The CA file that signed the cluster's certificate (for 127.0.0.1 and localhost):
    /// `ca.pem` beside the server's certificate, found by asking the server, so that it is known
    /// for a cluster `FPBRIDGE_TEST_POSTGRES` names as well as for one started here.
    public static func certificateAuthority() throws -> String {
        let base = try base.get()
        let result = Spawn.shell(["psql", base, "-qAtc", "SELECT current_setting('ssl') || ' ' || current_setting('ssl_cert_file')"])
        let answer = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, answer.hasPrefix("on ") else {
            throw ServiceProcessError(message: "the test PostgreSQL has no TLS (started by a scripts/postgres.sh without it?): \(answer)")
        }
        let file = URL(fileURLWithPath: String(answer.dropFirst(3))).deletingLastPathComponent().appendingPathComponent("ca.pem").path
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw ServiceProcessError(message: "no CA file \(file) beside the test PostgreSQL's certificate")
        }
        return file
    }

    private static func newDatabase(owner: String?) throws -> String {
        let base = try base.get()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let create = "CREATE DATABASE \(name)" + (owner.map { " OWNER \($0)" } ?? "")
        let result = Spawn.shell(["psql", base, "-v", "ON_ERROR_STOP=1", "-qc", create])
        guard result.status == 0 else { throw ServiceProcessError(message: "cannot create a test database: \(result.output)") }
        guard var components = URLComponents(string: base) else { return base }
        components.path = "/" + name
        if let owner { components.user = owner }
        return components.string ?? base
    }
}
