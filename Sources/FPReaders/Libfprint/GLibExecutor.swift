internal import CLibfprint
import FPCore
import FoundationEssentials

/// GLib's global default main context, owned and run by one dedicated thread,
/// as a Swift executor: every job of the ``GLibLoop`` actor runs from a GLib
/// idle on that thread.
///
/// Threading rule (docs/libfprint-facts.md §1): enumeration and every operation's callbacks
/// run on the global default context, and libfprint takes no locks, so every
/// libfprint and GObject call must run on this thread. Code isolated to
/// ``GLibLoop`` is the only code that can make such calls; the compiler keeps
/// everything else out.
///
/// Enumeration iterates the default context itself and would run queued idles in
/// the middle of it, so jobs enqueued before the context is ready wait in a queue
/// of their own and are scheduled once enumeration is over.
///
/// Why the loop, the bus (`Bus/`) and the sleep watch (`System/`) stay in FPReaders and not
/// in a module of their own (issue 41 §1 asked): the loop's start *is* libfprint's start. Its
/// enumeration must run first and alone on the default context, before any job, bus call or
/// signal handler; a loop module would need a start hook that whichever user comes first (a
/// reader, the fprintd face, the sleep watch) triggers in that order, and a wrong order brings
/// back the re-entrancy this queue exists to prevent. What the split was for is kept by
/// rules instead: `Bus/` and `System/` make no `_sync` call on the loop (only
/// `GLibBlocking`, off it; `LoopBlockingTests`), and FPService reaches GLib only through them.
final class GLibExecutor: SerialExecutor {
    static let shared = GLibExecutor()

    private enum State {
        case starting([UnownedJob])
        case ready
    }

    private let state = Locked(State.starting([]))

    private init() {
        DetachedThread.start(name: "fpb-glib-loop") {
            let context = g_main_context_default()
            g_main_context_acquire(context)
            LibfprintLogging.install()
            GLibLoop.assumeIsolated { LibfprintRuntime.start() }
            GLibExecutor.shared.becomeReady()
            g_main_loop_run(g_main_loop_new(context, 0))
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let waiting = state.withLock { state -> Bool in
            guard case .starting(var jobs) = state else { return false }
            jobs.append(job)
            state = .starting(jobs)
            return true
        }
        if !waiting { schedule(job) }
    }

    /// Schedules the jobs that waited for enumeration, in order, then every later one directly.
    private func becomeReady() {
        state.withLock { state in
            if case .starting(let jobs) = state { jobs.forEach(schedule) }
            state = .ready
        }
    }

    private func schedule(_ job: UnownedJob) {
        let box = Unmanaged.passRetained(JobBox(job: job, executor: asUnownedSerialExecutor())).toOpaque()
        // An idle always queues, unlike g_main_context_invoke, which runs the work
        // inline when the caller happens to own the context.
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let box = Unmanaged<JobBox>.fromOpaque(data!).takeRetainedValue()
            box.job.runSynchronously(on: box.executor)
            return 0  // G_SOURCE_REMOVE
        }, box, nil)
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Where C callbacks enter Swift (`GLibLoop.assumeIsolated`), this proves they
    /// run on the loop thread; anywhere else the process stops at once rather than
    /// race libfprint.
    func checkIsolated() {
        precondition(g_main_context_is_owner(g_main_context_default()) != 0,
                     "libfprint or GObject touched off the GLib loop thread")
    }
}

/// One job on its way through a GLib idle.
private final class JobBox {
    let job: UnownedJob
    let executor: UnownedSerialExecutor
    init(job: UnownedJob, executor: UnownedSerialExecutor) {
        self.job = job
        self.executor = executor
    }
}

/// The isolation of everything that touches libfprint or GObject: its executor
/// is the GLib loop thread (``GLibExecutor``).
@globalActor
actor GLibLoop {
    static let shared = GLibLoop()
    nonisolated var unownedExecutor: UnownedSerialExecutor { GLibExecutor.shared.asUnownedSerialExecutor() }
}
