import Dispatch
import FoundationEssentials
import Glibc

/// Turns Ctrl-C into an event while a command waits on the reader, so that the
/// command can end cleanly (close the reader, report, exit with its status)
/// instead of being killed mid-operation. ``release()`` gives SIGINT back as it was.
package final class CtrlC {
    private let source: any DispatchSourceSignal
    private let previous: (@convention(c) (Int32) -> Void)?

    package init(_ handler: @escaping @Sendable () -> Void) {
        previous = signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    package func release() {
        source.cancel()
        signal(SIGINT, previous)
    }
}
