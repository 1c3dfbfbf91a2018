import FPAuthentication
import FPLocalAPI
import FPServiceClient
import Foundation
import Testing
import TestSupport

/// A service that is missing or answers wrongly is a clear error naming its socket, within
/// moments: never a hang, a crash or a success.
@Suite struct ServiceClientFailureTests {
    let directory = TemporaryDirectory()
    static let helper = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Helpers/misbehaving-service.py").path

    /// Runs `body` with the socket of a server behaving as `mode`.
    func against<T>(_ mode: String, _ body: (String) async throws -> T) async throws -> T {
        let socket = directory.file("\(mode).sock")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = [Self.helper, socket, mode]
        try server.run()
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline {
            // A poll for the socket (10 s at most).
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await body(socket)
    }

    /// Runs `fpbridge --service SOCKET ARGS` against a server behaving as `mode`.
    func run(_ arguments: [String], against mode: String) async throws -> CommandResult {
        try await against(mode) { socket in try await Fpbridge.run(["--json", "--service", socket] + arguments, timeout: 30) }
    }

    @Test func aMissingServiceIsNotAvailableAndNamed() async throws {
        let socket = directory.file("nobody-listens.sock")
        let result = try await Fpbridge.run(["--json", "--service", socket, "status"], timeout: 30)
        #expect(result.status != 0 && result.errorCode == -6, "\(result.stdout) \(result.stderr)")
        #expect(result.errorMessage.contains(socket) && result.errorMessage.contains("is fpbridged running"))
    }

    /// Where fpbridged is installed (its unit is there) and its socket is not, the CLI refuses
    /// instead of answering from the caller's own files: a stopped service showed "in-process, 0
    /// failed, no prints" on a booted Debian, and `passcode set` wrote into the user's home (issue
    /// 38). The unit is made in a mount namespace of the test's own (a tmpfs over the machine's
    /// /etc/systemd/system), which nothing else on the machine sees.
    @Test func anInstalledServiceThatIsNotRunningIsAnErrorNotTheCallersOwnFiles() async throws {
        let home = directory.file("home")
        let environment = "HOME=\(home) XDG_DATA_HOME= FPBRIDGE_SERVICE= FPBRIDGE_STATE_DIR="
        let script = """
        mount -t tmpfs tmpfs /etc/systemd/system && touch /etc/systemd/system/fpbridged.service && \
        env \(environment) "$0" --json status; echo "status=$?"; env \(environment) "$0" --json --service off status >/dev/null; echo "off=$?"
        """
        let result = try await Fpbridge.runCommand(["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script,
                                                    Fpbridge.executable], environment: [:], timeout: 30)
        try #require(!FileManager.default.fileExists(atPath: LocalAPI.systemSocket), "the machine runs a system fpbridged")
        let output = result.stdout + result.stderr
        #expect(output.contains("status=3") && output.contains("\"code\":-6"), "\(output)")
        #expect(output.contains("fpbridged is installed (/etc/systemd/system/fpbridged.service) but nothing listens on "
                                + "/run/fpbridge/fpbridged.sock"), "\(output)")
        #expect(output.contains("off=0"), "--service off still works in-process: \(output)")
    }

    /// Each way a server answers wrongly: the command the CLI ran against it, the error code it
    /// must end with, and what its message must say beside the socket's path.
    struct Misbehaviour: Sendable, CustomTestStringConvertible {
        let mode: String
        let command: String
        let code: Int
        let says: String
        var testDescription: String { mode }
    }

    static let misbehaviours = [
        // Closed without a word, or reset before any answer (what a service at its connection
        // limit, or stopping, does): not there, as far as the client can tell.
        Misbehaviour(mode: "silent-close", command: "status", code: -6, says: "without answering"),
        Misbehaviour(mode: "reset", command: "status", code: -6, says: "is fpbridged running"),
        // Something else on the socket.
        Misbehaviour(mode: "garbage", command: "status", code: -2006, says: "failed"),
        // An evaluation cut off mid-stream is cancelled, never passed; a broken body is a
        // failure, not a cancellation.
        Misbehaviour(mode: "cut-stream", command: "verify", code: -4, says: "before its answer was complete"),
        Misbehaviour(mode: "bad-chunk", command: "verify", code: -2006, says: "sent a broken answer"),
        Misbehaviour(mode: "oversized", command: "status", code: -2006, says: "over 16777216 bytes"),
    ]

    @Test(arguments: misbehaviours)
    func aServerAnsweringWronglyIsAClearErrorNamingItsSocket(_ misbehaviour: Misbehaviour) async throws {
        let result = try await run([misbehaviour.command], against: misbehaviour.mode)
        #expect(result.status != 0 && result.errorCode == misbehaviour.code, "\(result.stdout) \(result.stderr)")
        #expect(result.errorMessage.contains(directory.file("\(misbehaviour.mode).sock")), "\(result.errorMessage)")
        #expect(result.errorMessage.contains(misbehaviour.says), "\(result.errorMessage)")
        // An answer the client could not use is told apart from a reader's failure (issue 53).
        let cause = (result.json["error"] as? [String: Any])?["cause"] as? String
        #expect(cause == (misbehaviour.code == -2006 ? "service-answer" : nil), "\(result.stdout)")
    }

    /// A service that takes the request and never starts its answer (stopped, or stuck) is given
    /// up on for reads and streamed operations; the CLI waits 30 s, here 1.
    @Test(.timeLimit(.minutes(1)), arguments: ["read", "stream"])
    func aServiceThatNeverAnswersIsGivenUpOn(_ kind: String) async throws {
        try await against("mute") { socket in
            var client = ServiceClient(socketPath: socket)
            client.answerDeadline = .seconds(1)
            let started = ContinuousClock.now
            let error = await #expect(throws: AuthError.self) {
                if kind == "read" {
                    let _: JSONValue = try await client.get("service")
                } else {
                    _ = try await client.stream("evaluations", ["operation": "evaluate"], handler: SilentHandler())
                }
            }
            #expect(error?.code == .biometryNotAvailable && error?.message.contains("no answer within") == true,
                    "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
}

private struct SilentHandler: StreamHandler {
    func event(_ event: AuthEvent) {}
    func enrollment(_ progress: EnrollmentProgress) {}
    func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? { nil }
}
