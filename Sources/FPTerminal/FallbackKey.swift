import FPCore
import FoundationEssentials
import Dispatch
import Glibc
import Synchronization

/// Watches the terminal for Enter while a fingerprint prompt is open, so that the
/// person can take the fallback (the passcode) instead of waiting out the timeout.
///
/// It reads the controlling terminal on a thread of its own and must be stopped
/// before anything else reads the terminal (the passcode prompt), or it would
/// swallow those keys.
package final class FallbackKey: Sendable {
    private let fd: Int32
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching; nil when there is no terminal (scripts, pipes, CI).
    package static func start(onPress: @escaping @Sendable () -> Void) -> FallbackKey? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        let fd = open("/dev/tty", O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        let key = FallbackKey(fd: fd)
        DetachedThread.start(name: "fpb-fallbackkey") { key.watch(onPress) }
        return key
    }

    private init(fd: Int32) {
        self.fd = fd
    }

    private func watch(_ onPress: @Sendable () -> Void) {
        defer { finished.signal() }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while !stopping.load(ordering: .acquiring) {
            // A short poll keeps stop() prompt without any signal tricks.
            guard poll(&poller, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return }
            if buffer.prefix(count).contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
                onPress()
            }
        }
    }

    /// Stops watching and waits until the terminal is free. Safe to call twice.
    package func stop() {
        guard stopping.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        finished.wait()
        close(fd)
    }

    deinit { stop() }
}
