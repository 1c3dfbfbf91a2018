import FPAuthentication
import Foundation

/// Asks for passcodes: one line of standard input each with `--passcode-stdin`,
/// otherwise a no-echo prompt on the controlling terminal.
struct TerminalPrompt: AuthPrompt {
    let fromStandardInput: Bool
    /// Watches the terminal during scans; it gives the terminal up before a passcode is read.
    var fallbackKey: FallbackKey? = nil

    func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> String? {
        fallbackKey?.stop()
        if fromStandardInput { return readLine(strippingNewline: true) }
        return Self.readHidden("\(reason.isEmpty ? "Passcode" : reason) (\(attemptsLeftBeforeLockout) attempts left): ")
    }

    /// Reads one line from /dev/tty with echo off; nil when there is no terminal.
    static func readHidden(_ prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            FileHandle.standardError.write(Data("fpbridge: no terminal to ask for the passcode; pass it with --passcode-stdin\n".utf8))
            return nil
        }
        defer { close(fd) }
        var original = termios()
        let haveTerminal = tcgetattr(fd, &original) == 0
        if haveTerminal {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &silent)
        }
        defer {
            if haveTerminal { tcsetattr(fd, TCSAFLUSH, &original) }
            _ = write(fd, "\n", 1)
        }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
