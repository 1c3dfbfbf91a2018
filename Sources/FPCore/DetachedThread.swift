internal import CProcessSecurity
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Starts a named POSIX thread that runs `body` once and ends: the GLib loop, the
/// key-derivation worker, the terminal readers. (Foundation's `Thread` brings the rest of
/// Foundation into every program that links it.) The thread takes no signal but those a
/// fault raises in it: a SIGCHLD or SIGTERM taken here would be lost to the signalfd that
/// Dispatch waits on elsewhere, while a crash must still reach the runtime's backtracer.
package enum DetachedThread {
    /// Runs `body` on a new thread named `name` (Linux keeps its first 15 bytes; without a
    /// name a thread shows its creator's). A thread that cannot be created stops the
    /// process with the reason, as Foundation's `Thread.start()` does.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        // A new thread starts with its creator's mask: set here, it holds from the thread's
        // first instruction, and the creator gets its own back once the thread exists.
        var blocked = sigset_t(), creators = sigset_t()
        sigfillset(&blocked)
        for fault in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGSYS, SIGABRT] { sigdelset(&blocked, fault) }
        pthread_sigmask(SIG_SETMASK, &blocked, &creators)
        let result = pthread_create(&thread, nil, { raw in
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            _ = fpb_name_this_thread(work.name)
            work.body()
            return nil
        }, work)
        pthread_sigmask(SIG_SETMASK, &creators, nil)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            fatalError("cannot start the thread \(name): \(Errno(rawValue: result).description)")
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
