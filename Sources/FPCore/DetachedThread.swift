internal import CProcessSecurity
#if canImport(Glibc)
import Glibc
#endif

/// Starts a named POSIX thread that runs `body` once and ends: the GLib loop, the
/// key-derivation worker, the terminal readers. The thread blocks every signal. Foundation's `Thread` would do the
/// same but brings the rest of Foundation into every program that links it.
package enum DetachedThread {
    /// Runs `body` on a new thread named `name` (Linux keeps its first 15 bytes; without a
    /// name a thread shows its creator's). A thread that cannot be created stops the
    /// process with the reason, as Foundation's `Thread.start()` does.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            // No signal is delivered here: a SIGCHLD taken by this thread would be lost to the
            // signalfd that Dispatch (and so Foundation's Process) waits on elsewhere.
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            _ = fpb_name_this_thread(work.name)
            work.body()
            return nil
        }, work)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            fatalError("cannot start the thread \(name): \(String(cString: strerror(result)))")
        }
        pthread_detach(thread)
    }

    private final class Work: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
