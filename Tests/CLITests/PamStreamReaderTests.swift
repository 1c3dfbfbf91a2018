import FPJSON
import FPLocalAPI
import FPVocabulary
import Foundation
import Testing
import TestSupport

/// How pam_fpbridge.so reads fpbridged's answer (issue 49: the daemon's answers are untrusted
/// input): the stream's chunk framing and each line's JSON, read whole by the module's own
/// parser (pam/json_reader.c), never by the first occurrence of a key. The module's real
/// sources, through pam/host/stream_reader.c, which also is their fuzz target.
@Suite struct PamStreamReaderTests {
    static let directory = TemporaryDirectory()
    static let built = Task { () throws -> String in
        let output = directory.file("stream_reader")
        let pam = PamModule.packageRoot + "/pam/"
        let result = try await Fpbridge.runCommand(
            ["/usr/bin/cc", "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror", "-o", output, pam + "host/stream_reader.c",
             pam + "evaluation_stream.c", pam + "json_reader.c", pam + "service_request.c"],
            environment: ProcessInfo.processInfo.environment, timeout: 120)
        try #require(result.status == 0, "cc stream_reader.c: \(result.stdout)\(result.stderr)")
        return output
    }

    /// The body of an answer as fpbridged frames it: one chunk per line, then the last chunk.
    static func body(_ lines: [String], last: Bool = true) -> Data {
        var data = Data()
        for line in lines {
            let payload = Data((line + "\n").utf8)
            data += Data(String(payload.count, radix: 16).utf8) + Data("\r\n".utf8) + payload + Data("\r\n".utf8)
        }
        if last { data += Data("0\r\n\r\n".utf8) }
        return data
    }

    /// What the reader made of `input`, fed `piece` bytes at a time (0: at once).
    static func read(_ input: Data, piece: Int = 0) async throws -> [String] {
        let binary = try await built.value
        let file = directory.file("input-\(UUID().uuidString)")
        try input.write(to: URL(fileURLWithPath: file))
        let result = try await Fpbridge.runCommand(["/bin/sh", "-c", "exec \"$0\" \"$1\" < \"$2\"", binary, String(piece), file],
                                                   environment: [:], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(arguments: [0, 1, 7])
    func aStreamIsReadLineByLineHoweverItsBytesArrive(piece: Int) async throws {
        let lines = try await Self.read(Self.body([
            #"{"type":"started","operation":"op-1"}"#,
            #"{"type":"event","event":{"kind":"presentFinger"}}"#,
            #"{"type":"event","event":{"kind":"noMatch","attemptsLeftInEvaluation":2}}"#,
            #"{"type":"result","ok":true,"value":{"user":"alice"}}"#,
        ]), piece: piece)
        #expect(lines == ["line: other code=0 left=-1 message=", "line: ready code=0 left=-1 message=",
                          "line: no-match code=0 left=2 message=", "line: matched code=0 left=-1 message=", "end: ended"])
    }

    /// The lines as fpbridged itself writes them (its own encoder, StreamLine and WireCoding):
    /// what the module acts on is where the service puts it.
    @Test func fpbridgedsOwnLinesAreReadAsTheServiceMeansThem() async throws {
        let lines: [StreamLine] = [
            .started("op-7"), .event(.presentFinger(.press)), .event(.noMatch(attemptsLeftInEvaluation: 2, attemptsLeftBeforeLockout: 4)),
            .event(.retryHint(.center)), .failure(AuthError(.biometryLockout, "Too many failed attempts", retryAfter: 30)),
            .failure(AuthError(.timedOut, "no finger within 60 s")), .success(.object(["user": .string("alice")])),
        ]
        var body = Data()
        for line in lines {
            let payload = WireCoding.line(line)
            body += Data(String(payload.count, radix: 16).utf8) + Data("\r\n".utf8) + payload + Data("\r\n".utf8)
        }
        let read = try await Self.read(body + Data("0\r\n\r\n".utf8))
        #expect(read == ["line: other code=0 left=-1 message=", "line: ready code=0 left=-1 message=",
                         "line: no-match code=0 left=2 message=", "line: other code=0 left=-1 message=",
                         "line: failed code=-8 left=-1 message=Too many failed attempts",
                         "line: failed code=-2003 left=-1 message=no finger within 60 s",
                         "line: matched code=0 left=-1 message=", "end: ended"])
    }

    /// Keys are found by their place, not by searching the text: an error's `cause` has a `code`
    /// of its own and sorts first; a string may hold what looks like a key.
    @Test func aKeyIsFoundWhereItIsNotWhereItFirstAppears() async throws {
        let lines = try await Self.read(Self.body([
            #"{"type":"result","ok":false,"error":{"cause":{"code":-1,"message":"inner"},"code":-8,"message":"locked"}}"#,
            #"{"note":"\"type\":\"result\",\"ok\":true","type":"event","event":{"kind":"fingerDetected"}}"#,
            #"{"type":"event","attemptsLeftInEvaluation":0,"event":{"kind":"noMatch","detail":{"attemptsLeftInEvaluation":0},"attemptsLeftInEvaluation":1}}"#,
        ]))
        #expect(lines == ["line: failed code=-8 left=-1 message=locked", "line: other code=0 left=-1 message=",
                          "line: no-match code=0 left=1 message=", "end: ended"])
    }

    /// A line that is not JSON, that says `ok` twice, or whose key only starts with `ok` (`ok\u0000x`,
    /// which a C string would cut to `ok`), is never a match: the finger ends.
    @Test func anUnreadableOrAmbiguousLineIsAFailureNeverAMatch() async throws {
        let lines = try await Self.read(Self.body([
            #"{"type":"result","ok":false,"ok":true}"#,
            #"{"type":"result","ok\u0000x":true}"#,
            #"{"type":"result","ok":true"#,
            #"{"type":"result","ok":true} trailing"#,
            #"{"type":"result","ok":tru}"#,
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        ]))
        #expect(lines == ["line: failed code=0 left=-1 message=fpbridged ended the scan",
                          "line: failed code=0 left=-1 message=fpbridged ended the scan",
                          "line: failed code=0 left=-1 message=fpbridged sent a line that is not JSON",
                          "line: failed code=0 left=-1 message=fpbridged sent a line that is not JSON",
                          "line: failed code=0 left=-1 message=fpbridged sent a line that is not JSON",
                          "line: failed code=0 left=-1 message=fpbridged sent a line that is not JSON", "end: ended"])
    }

    /// Only printable ASCII of a message reaches a terminal: escapes, C1 controls (raw and as
    /// UTF-8), \u escapes and right-to-left overrides become '?'.
    @Test func aMessageReachesTheTerminalAsPrintableASCIIAlone() async throws {
        var line = Data(#"{"type":"result","ok":false,"error":{"code":-8,"message":"a\u001b[2J b\u0007 c"#.utf8)
        line += Data([0x9b, 0x20, 0xc2, 0x9b, 0x20, 0xe2, 0x80, 0xae]) + Data(#" d\u202e"}}"#.utf8) + Data("\n".utf8)
        let body = Data(String(line.count, radix: 16).utf8) + Data("\r\n".utf8) + line + Data("\r\n0\r\n\r\n".utf8)
        let lines = try await Self.read(body)
        #expect(lines == ["line: failed code=-8 left=-1 message=a?[2J b? c? ?? ??? d?", "end: ended"])
    }

    /// Framing fpbridged never sends is refused, not read past: a size that is no number, one of
    /// over a MiB, a chunk not ended by CRLF, a line longer than the buffers.
    @Test(arguments: ["1x\r\nab\r\n", "fffffff\r\n", "3\r\nabcXY", "; no size\r\n"])
    func framingFpbridgedNeverSendsIsRefused(input: String) async throws {
        let lines = try await Self.read(Data(input.utf8))
        #expect(lines == ["end: refused"], "\(input.debugDescription)")
    }

    @Test func aLineLongerThanTheBuffersIsRefused() async throws {
        let lines = try await Self.read(Self.body([#"{"type":"event","event":{"kind":""# + String(repeating: "x", count: 9000)], last: false),
                                        piece: 512)
        #expect(lines == ["end: refused"])
    }
}
