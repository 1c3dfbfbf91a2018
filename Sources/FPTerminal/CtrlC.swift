import Dispatch
import FoundationEssentials
import Glibc
import FPVocabulary

/// Turns Ctrl-C into an event while a command waits on the reader, so that the
/// command can end cleanly (close the reader, report, exit with its status)
/// instead of being killed mid-operation. ``release()`` gives SIGINT back.
///
/// SIGINT's disposition is process-wide while evaluations may overlap (two `LAContext`s
/// of one app), and they need not end in the order they began. So the disposition is
/// counted, not saved per instance: the first live instance saves it and ignores SIGINT
/// (each instance then hears it through a dispatch source of its own), and the last one
/// released puts back what the first saved, whatever order they end in.
package final class CtrlC {
    private let source: any DispatchSourceSignal
    private let released = Locked(false)

    /// How many instances are live, and the disposition SIGINT had before the first.
    private struct Holders {
        var count = 0
        var saved: (@convention(c) (Int32) -> Void)?
    }
    private static let holders = Locked(Holders())

    package init(_ handler: @escaping @Sendable () -> Void) {
        Self.holders.withLock { holders in
            // Ignored again by every holder, not only the first: libdispatch may have put its
            // own handler in while other holders' sources came and went.
            let previous = signal(SIGINT, SIG_IGN)
            if holders.count == 0 { holders.saved = previous }
            holders.count += 1
        }
        source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler(handler: handler)
        let cancelled = self.cancelled
        source.setCancelHandler { cancelled.signal() }
        source.resume()
    }

    /// Signalled once the source is cancelled and unregistered. libdispatch takes a signal
    /// source down on its own thread, and when the last one for SIGINT goes it sets SIGINT back
    /// to the default: after `release()` returned, that could undo what a newer holder set.
    private let cancelled = DispatchSemaphore(value: 0)

    /// Stops listening; the last live instance restores SIGINT. A second call does nothing.
    package func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        guard first else { return }
        source.cancel()
        // The cancel handler runs on a global queue, never this caller's: waiting cannot deadlock.
        _ = cancelled.wait(timeout: .now() + 2)
        Self.holders.withLock { holders in
            holders.count -= 1
            if holders.count == 0 {
                signal(SIGINT, holders.saved)
                holders.saved = nil
            } else {
                // Cancelling this holder's source must not leave the others' Ctrl-C a kill.
                signal(SIGINT, SIG_IGN)
            }
        }
    }

    /// Whether SIGINT is ignored now (read without changing it; for tests).
    package static var isIgnoringInterrupts: Bool {
        var current = sigaction()
        sigaction(SIGINT, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
