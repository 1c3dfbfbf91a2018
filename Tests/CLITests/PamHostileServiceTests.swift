import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The daemon's answers are untrusted input (issue 49): a stand-in for fpbridged that sends
/// endless event lines, a slow byte stream, a line too long, terminal escapes, or listens as
/// another user, costs a login a bounded time and the password prompt, never a hang, a crash or
/// a byte that reaches the terminal unfiltered. The real module in a real PAM stack
/// (PamTouchOrTypeTests.Stack); the stand-in is Tests/Helpers/misbehaving-service.py.
/// Serialized: libpam-wrapper names its directory for each host /tmp/pam.X and two hosts
/// started at the same moment can take the same X ("File exists").
@Suite(.serialized) struct PamHostileServiceTests {
    static let helper = PamModule.packageRoot + "/Tests/Helpers/misbehaving-service.py"

    /// Starts the stand-in as `mode` (as `user`, when given, through setpriv), runs one su login
    /// with finger then password (`prompt=sequence`, the reader's 2 s), types the password when
    /// the password module asks, and returns the host's output and status.
    func login(against mode: String, as user: String? = nil) async throws -> (output: String, status: Int32) {
        let directory = TemporaryDirectory()
        // Another user must be able to bind its socket here.
        _ = chmod(directory.path, 0o777)
        let socket = directory.file("\(mode).sock")
        var command = ["/usr/bin/python3", Self.helper, socket, mode]
        if let user {
            // A copy the other user can read: the clone may sit below a folder only its owner can enter.
            let helper = try Fpbridge.copyForOtherUsers(Self.helper, in: directory)
            _ = chmod(directory.path, 0o777)
            command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=nogroup", "--clear-groups", "--", "/usr/bin/python3", helper, socket, mode]
        }
        let server = try RunningClient(command, environment: ProcessInfo.processInfo.environment)
        defer { server.kill() }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline {
            // A poll for the socket (10 s at most).
            try await Task.sleep(for: .milliseconds(20))
        }
        let stack = try PamTouchOrTypeTests.Stack(service: "su", module: try await PamModule.path(), socket: socket,
                                                  arguments: "prompt=sequence timeout=2", passwordProved: false)
        let (client, input) = try await stack.start(environment: ["PAM_WRAPPER_DEBUGLEVEL": "4"])
        defer { try? input.fileHandleForWriting.close() }
        // The transaction's deadline is the request's 5 s, the reader's 2 s and 1 s: 8 s. Twice
        // that and some is a hang.
        let asked = try await client.waitFor("\n" + PamTouchOrTypeTests.passwordPrompt, timeout: 20)
        input.fileHandleForWriting.write(Data("secret\n".utf8))
        let status = try await client.finish(timeout: 20)
        #expect(asked, "\(mode): the password module never asked: \(client.output)")
        return (client.output, status)
    }

    @Test(arguments: ["endless-events", "slow-bytes", "huge-line"])
    func aStreamThatNeverEndsOrOverflowsCostsABoundedWaitAndThePassword(mode: String) async throws {
        let (output, status) = try await login(against: mode)
        #expect(status == 0 && output.contains("result: Success"), "\(mode): \(output)")
    }

    @Test func terminalEscapesAndHighBytesFromTheDaemonNeverReachTheTerminal() async throws {
        let (output, status) = try await login(against: "escapes")
        #expect(status == 0 && output.contains("result: Success"), "\(output)")
        #expect(output.contains("Fingerprint locked: locked ?[2J?]0;owned? ?31m ?? ??? done"), "the message, filtered: \(output)")
        let scalars = output.unicodeScalars
        #expect(!scalars.contains { $0.value == 0x1b || $0.value == 0x07 || (0x80...0x9f).contains($0.value) || $0.value == 0xfffd
                    || $0.value == 0x202e },
                "no escape, bell, C1 control, right-to-left override or undecodable byte: \(output.debugDescription)")
    }

    @Test func aSocketBoundByAnotherUserIsNotAskedAtAll() async throws {
        try #require(getuid() == 0, "root only: the stand-in runs as nobody")
        let (output, status) = try await login(against: "endless-events", as: "nobody")
        #expect(status == 0 && output.contains("result: Success"), "\(output)")
        #expect(output.contains("is not fpbridged's: its peer is uid 65534, neither root nor fpbridge"), "\(output)")
        #expect(!output.contains("Touch the fingerprint reader"), "no finger offered: \(output)")
    }
}
