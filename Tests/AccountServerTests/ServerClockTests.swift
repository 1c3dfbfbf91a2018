import Foundation
import Testing
import TestSupport

/// The tests' clock of the login server (`--test-clock-offset-file`): a file it cannot read is
/// an error at start, named, instead of a crash at the first reading (issue 41 §5: the server
/// retried with `usleep` and then called `fatalError`); time moved by the test is seen.
@Suite struct ServerClockTests {
    @Test func aClockFileWithoutANumberStopsTheServerAtStartSayingSo() throws {
        let directory = TemporaryDirectory()
        for content in [nil, "soon"] {
            let path = directory.file("clock-\(content ?? "missing")")
            if let content { try content.write(toFile: path, atomically: true, encoding: .utf8) }
            let result = Spawn.shell([LoginServerProcess.executable, "--port", "0", "--database", directory.file("server.sqlite"),
                                      "--test-clock-offset-file", path])
            #expect(result.status != 0 && result.output.contains("--test-clock-offset-file \(path) holds no number of milliseconds"),
                    "\(result.status): \(result.output)")
        }
    }

    @Test func timeTheTestMovesIsTheServersTime() async throws {
        let server = try await LoginServerProcess()
        let before = server.now
        try server.advanceClock(by: 3_600)
        // The server's own reading, through an answer that carries its time: a challenge's expiry.
        let challenge = try await server.request("POST", "/v1/kiosk/challenges", json: ["origin": server.origin])
        let expires = try #require((challenge.json["expiresAt"] as? NSNumber)?.int64Value, "\(challenge.status) \(String(decoding: challenge.body, as: UTF8.self))")
        #expect(expires > before + 3_600_000 && expires < before + 3_600_000 + 600_000, "\(expires - before) ms after the start")
    }
}
