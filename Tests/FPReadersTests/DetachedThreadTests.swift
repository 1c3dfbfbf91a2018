import FPCore
import Foundation
import Testing

/// The threads fpbridge starts (the GLib loop, the key-derivation worker, the terminal
/// readers): no process signal is taken there, a fault raised there still reaches the runtime.
struct DetachedThreadTests {
    /// Whether each signal is blocked on a new `DetachedThread`, as its first statement sees it.
    private func blockedOnADetachedThread(_ signals: [Int32]) async -> [Int32: Bool] {
        await withCheckedContinuation { continuation in
            DetachedThread.start(name: "fpb-mask-test") {
                var mask = sigset_t()
                pthread_sigmask(SIG_BLOCK, nil, &mask)
                continuation.resume(returning: Dictionary(uniqueKeysWithValues: signals.map { ($0, sigismember(&mask, $0) == 1) }))
            }
        }
    }

    @Test func processSignalsAreBlockedFromTheThreadsFirstInstruction() async {
        let blocked = await blockedOnADetachedThread([SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGUSR1])
        #expect(blocked.values.allSatisfy { $0 }, "\(blocked)")
    }

    @Test func faultsStayDeliverableSoACrashIsReportedWithItsBacktrace() async {
        let blocked = await blockedOnADetachedThread([SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGSYS, SIGABRT])
        #expect(blocked.values.allSatisfy { !$0 }, "\(blocked)")
    }

    @Test func theCreatorKeepsItsOwnMask() {
        // Synchronous: before and after are read on the same thread.
        var before = sigset_t(), after = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &before)
        DetachedThread.start(name: "fpb-mask-test") {}
        pthread_sigmask(SIG_BLOCK, nil, &after)
        for signal in [SIGTERM, SIGCHLD, SIGUSR1, SIGSEGV] {
            #expect(sigismember(&before, signal) == sigismember(&after, signal), "signal \(signal)")
        }
    }
}
