import Foundation
import Testing
import TestSupport

/// Input for a child that has already exited must not end the test process (SIGPIPE's default
/// action), which lost every later suite of a CI run; nor may the child inherit an ignored SIGPIPE.
@Suite struct ChildInputTests {
    @Test func writingToAChildThatExitedFailsQuietly() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        try await blocking { process.waitUntilExit() }
        try stdin.fileHandleForReading.close()
        // Nobody holds the read end now: the write meets EPIPE (the process would die of
        // SIGPIPE here without the helper), more than a pipe's buffer to be sure of it.
        #expect(stdin.fileHandleForWriting.writeToChild(Data(count: 1 << 20)) == false)
        try stdin.fileHandleForWriting.close()
    }

    @Test func aChildStartedAfterwardsHasSIGPIPEsDefaultAction() async throws {
        let stdin = Pipe()
        try stdin.fileHandleForReading.close()
        stdin.fileHandleForWriting.writeToChild(Data("x".utf8))
        let result = try await Fpbridge.runCommand(["/bin/sh", "-c", "grep SigIgn /proc/self/status"],
                                                   environment: [:], timeout: 10)
        let mask = UInt64(result.stdout.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", radix: 16)
        #expect(mask.map { $0 & (1 << (UInt64(SIGPIPE) - 1)) == 0 } == true, "\(result.stdout)")
    }
}
