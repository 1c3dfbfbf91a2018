import FPCore
import FoundationEssentials
import Glibc
import Synchronization

/// Reads one secret line (a passcode) from the terminal without echo, or from
/// standard input, on a thread of its own: Swift's cooperative pool is never
/// blocked, the read ends when its task is cancelled or its time is up, and
/// the bytes go straight into a ``Passcode`` that wipes them.
///
/// At the terminal the line is read key by key with signals off, so that
/// Ctrl-C and Ctrl-D cancel the prompt (and the terminal's echo is always
/// restored), Backspace and Ctrl-U edit, and Enter ends the line.
package enum SecretInput {
    package enum Source: Sendable {
        case terminal(prompt: String)
        case standardInput
        /// An open descriptor the caller inherited (`--token-fd 3`): the secret never passes through argv.
        case descriptor(Int32)
    }

    package enum Outcome: Sendable {
        case entered(Passcode)
        case cancelled
        case timedOut
        /// Nothing to read: no terminal, or standard input at its end.
        case noInput
    }

    /// The longest line accepted; the buffer is reserved once so no copy is left behind by growth.
    package static let maximumLength = 1024

    package static func read(_ source: Source, timeout: Duration) async -> Outcome {
        let stop = StopFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DetachedThread.start(name: "fpb-passcode") {
                    continuation.resume(returning: readBlocking(source, deadline: .now + timeout, stop: stop))
                }
            }
        } onCancel: {
            stop.raise()
        }
    }

    private static func readBlocking(_ source: Source, deadline: ContinuousClock.Instant, stop: StopFlag) -> Outcome {
        switch source {
        case .standardInput:
            return readLine(fd: STDIN_FILENO, deadline: deadline, stop: stop, keys: false)
        case .descriptor(let fd):
            return readLine(fd: fd, deadline: deadline, stop: stop, keys: false)
        case .terminal(let prompt):
            let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else {
                StandardError.write("fpbridge: no terminal to ask for the passcode; pass it with --passcode-stdin\n")
                return .noInput
            }
            defer { close(fd) }
            var original = termios()
            let isTerminal = tcgetattr(fd, &original) == 0
            if isTerminal {
                var keys = original
                keys.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
                keys.c_iflag &= ~tcflag_t(IXON | ICRNL)
                tcsetattr(fd, TCSANOW, &keys)
            }
            defer {
                if isTerminal { tcsetattr(fd, TCSANOW, &original) }
                _ = write(fd, "\n", 1)
            }
            _ = prompt.withCString { write(fd, $0, strlen($0)) }
            return readLine(fd: fd, deadline: deadline, stop: stop, keys: isTerminal)
        }
    }

    /// Reads up to the end of a line. `keys`: the terminal's keys arrive raw and are interpreted here.
    private static func readLine(fd: Int32, deadline: ContinuousClock.Instant, stop: StopFlag, keys: Bool) -> Outcome {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(maximumLength)
        defer { bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } } }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            if stop.raised { return .cancelled }
            if ContinuousClock.now >= deadline { return .timedOut }
            // A short poll keeps cancellation and the deadline prompt without signal tricks.
            let ready = poll(&poller, 1, 100)
            if ready < 0 && errno != EINTR { return .noInput }
            guard ready > 0 else { continue }
            var byte: UInt8 = 0
            let count = Glibc.read(fd, &byte, 1)
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return .noInput
            }
            if count == 0 {
                return bytes.isEmpty ? .noInput : .entered(Passcode(wiping: &bytes))
            }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                return .entered(Passcode(wiping: &bytes))
            case 0x03 where keys:  // Ctrl-C
                return .cancelled
            case 0x04 where keys:  // Ctrl-D
                if bytes.isEmpty { return .cancelled }
            case 0x7F where keys, 0x08 where keys:  // Backspace: one character, however many bytes
                while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
            case 0x15 where keys:  // Ctrl-U
                bytes.removeAll(keepingCapacity: true)
            default:
                if bytes.count < maximumLength { bytes.append(byte) }
            }
        }
    }
}

/// Set from any thread to stop a blocking read at its next poll.
private final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func raise() { flag.store(true, ordering: .releasing) }
    var raised: Bool { flag.load(ordering: .acquiring) }
}
