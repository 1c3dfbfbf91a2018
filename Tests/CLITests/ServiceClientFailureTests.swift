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

    @Test func aServiceThatClosesWithoutAWordIsNotAvailable() async throws {
        let result = try await run(["status"], against: "silent-close")
        #expect(result.status != 0 && result.errorCode == -6, "\(result.stdout) \(result.stderr)")
        #expect(result.errorMessage.contains("without answering"), "\(result.errorMessage)")
    }

    /// What a service at its connection limit, or stopping, does: the connection is reset
    /// before any answer. Not there, as far as the client can tell.
    @Test func aConnectionResetBeforeTheAnswerIsNotAvailable() async throws {
        let result = try await run(["status"], against: "reset")
        #expect(result.status != 0 && result.errorCode == -6, "\(result.stdout) \(result.stderr)")
        #expect(result.errorMessage.contains("is fpbridged running"), "\(result.errorMessage)")
    }

    @Test func somethingElseOnTheSocketIsAFailureNamingIt() async throws {
        let result = try await run(["status"], against: "garbage")
        #expect(result.status != 0 && result.errorCode == -2006, "\(result.stdout) \(result.stderr)")
        #expect(result.errorMessage.contains(directory.file("garbage.sock")), "\(result.errorMessage)")
    }

    @Test func anEvaluationCutOffMidStreamIsCancelledNotPassed() async throws {
        let result = try await run(["verify"], against: "cut-stream")
        #expect(result.status != 0 && result.errorCode == -4, "\(result.stdout) \(result.stderr)")
        #expect(result.errorMessage.contains("before its answer was complete"), "\(result.errorMessage)")
    }

    @Test func aBrokenBodyIsAFailureNotACancellation() async throws {
        let result = try await run(["verify"], against: "bad-chunk")
        #expect(result.status != 0 && result.errorCode == -2006, "\(result.stdout) \(result.stderr)")
        #expect(result.errorMessage.contains("sent a broken answer"), "\(result.errorMessage)")
    }

    @Test func anOversizedAnswerIsRefused() async throws {
        let result = try await run(["status"], against: "oversized")
        #expect(result.status != 0 && result.errorCode == -2006, "\(result.stdout) \(result.stderr)")
        #expect(result.errorMessage.contains("over 16777216 bytes"), "\(result.errorMessage)")
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
