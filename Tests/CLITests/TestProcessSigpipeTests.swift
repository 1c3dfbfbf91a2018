import Foundation
import Glibc
import Testing
import TestSupport

/// Issue 53: a test process must never die of SIGPIPE (whole suites ended with signal 13 under
/// load, with no word of which write it was). CTestProcess catches it when the test binary
/// loads: the write fails with EPIPE, the writer's frames go to stderr (scripts/swift-test.py
/// shows them, symbolized, for any suite where it happened), and children still start with
/// SIGPIPE at its default, as the programs under test meet it in use.
@Suite(.serialized) struct TestProcessSigpipeTests {
    @Test func aWriteToAPipeNobodyReadsFailsAndNamesTheWriterWithoutEndingTheProcess() throws {
        #expect(TestProcess.sigpipeWatched)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        let directory = TemporaryDirectory()
        let capture = directory.file("stderr")
        // stderr to a file for the one write, so that the report can be read back.
        let file = open(capture, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        fflush(nil)  // every stream, stderr's buffer among them
        let saved = dup(STDERR_FILENO)
        dup2(file, STDERR_FILENO)
        let written = write(ends[1], "x", 1)
        let failure = errno
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(file)
        close(ends[1])
        #expect(written == -1 && failure == EPIPE, "the write fails; the process goes on")
        let report = try String(contentsOfFile: capture, encoding: .utf8)
        #expect(report.contains(TestProcess.sigpipeMarker) && report.contains("end of the writer's frames"), "\(report)")
        // The frames: this test binary's, one line each.
        #expect(report.split(separator: "\n").filter { $0.contains("fpbridgePackageTests") }.count >= 2, "\(report)")
    }

    /// A child (Foundation's Process, as most tests start them) does not inherit the catch
    /// (exec resets a caught signal) nor an ignore.
    @Test func aChildStartsWithSIGPIPEAtItsDefault() async throws {
        let status = try await Fpbridge.runCommand(["/bin/cat", "/proc/self/status"], environment: [:], timeout: 10)
        try #require(status.status == 0, "\(status.stderr)")
        let masks = status.stdout.split(separator: "\n").filter { $0.hasPrefix("SigIgn:") || $0.hasPrefix("SigCgt:") }
        try #require(masks.count == 2, "\(status.stdout)")
        for line in masks {
            let mask = UInt64(line.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces), radix: 16)!
            #expect(mask & (1 << (UInt64(SIGPIPE) - 1)) == 0, "\(line)")
        }
    }
}
