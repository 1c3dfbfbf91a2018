import CLibfprint
import Foundation

/// The one thread that owns GLib's global default main context.
///
/// Threading rule: libfprint's enumeration and every operation's callbacks run
/// on the global default `GMainContext`, and libfprint takes no locks. So one
/// dedicated thread runs `g_main_loop_run` on that context, and **every**
/// libfprint or GObject call, getters and unrefs included, is submitted to it
/// with ``submit(_:)`` or ``run(_:)``. Only `g_cancellable_cancel` may be
/// called from elsewhere. Never call a libfprint `_sync` function.
final class GLibMainLoop: Sendable {
    /// Starts the thread. `prepare` runs on it before the loop does, with the
    /// default context owned by that thread (so enumeration may iterate it).
    init(name: String, prepare: @escaping @Sendable () -> Void) {
        // Linux keeps 15 bytes of a thread name. Without one the thread shows its
        // creator's (a Swift pool thread's) name in `ps` and crash reports.
        let shortName = String(name.utf8.prefix(15))!
        let thread = Thread {
            Thread.current.name = shortName
            let context = g_main_context_default()
            g_main_context_acquire(context)
            prepare()
            let loop = g_main_loop_new(context, 0)
            g_main_loop_run(loop)
        }
        thread.start()
    }

    /// Queues `body` to run on the loop thread. Work queued before the loop
    /// starts runs once it does, in order.
    func submit(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ClosureBox(body)).toOpaque()
        // An idle source always queues, unlike g_main_context_invoke, which
        // would run the work on the caller's thread when nobody owns the context yet.
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            Unmanaged<ClosureBox>.fromOpaque(data!).takeRetainedValue().body()
            return 0  // G_SOURCE_REMOVE
        }, box, nil)
    }

    /// Runs `body` on the loop thread and returns its result to the caller's task.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// ``run(_:)`` for work that cannot fail.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: body()) }
        }
    }
}

private final class ClosureBox {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
