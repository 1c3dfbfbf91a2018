import CLibfprint
import Synchronization

typealias DevicePointer = UnsafeMutablePointer<FpDevice>
typealias ContextPointer = UnsafeMutablePointer<FpContext>

/// The process's one libfprint context, living on the GLib loop thread.
///
/// Created on first use: the loop thread creates the `FpContext` and
/// enumerates readers before anyone may submit work, because enumeration
/// iterates the default context itself and would run queued work in the middle.
final class LibfprintRuntime: Sendable {
    static let shared = LibfprintRuntime()

    let loop: GLibMainLoop
    private let readiness: Readiness

    private init() {
        let readiness = Readiness()
        self.readiness = readiness
        loop = GLibMainLoop(name: "fpb-glib-loop") {
            LibfprintLogging.install()
            let context = fp_context_new()!
            fp_context_enumerate(context)
            readiness.publish(LoopBound(raw: context))
        }
    }

    /// The context, once enumeration has finished.
    func context() async -> LoopBound<ContextPointer> {
        await readiness.wait()
    }

    /// Every reader libfprint found, each with a reference of its own.
    func devices() async -> [LoopBound<DevicePointer>] {
        let context = await context()
        return await loop.run {
            guard let array = fp_context_get_devices(context.raw) else { return [] }
            return (0..<Int(array.pointee.len)).compactMap { index in
                guard let item = array.pointee.pdata[index] else { return nil }
                g_object_ref(item)
                return LoopBound(raw: item.assumingMemoryBound(to: FpDevice.self))
            }
        }
    }
}

/// Hands the context from the loop thread's set-up to the tasks waiting for it.
private final class Readiness: Sendable {
    private enum State {
        case starting([CheckedContinuation<LoopBound<ContextPointer>, Never>])
        case ready(LoopBound<ContextPointer>)
    }

    private let state = Mutex(State.starting([]))

    func publish(_ context: LoopBound<ContextPointer>) {
        let waiters = state.withLock { state in
            guard case .starting(let waiters) = state else { return [CheckedContinuation<LoopBound<ContextPointer>, Never>]() }
            state = .ready(context)
            return waiters
        }
        waiters.forEach { $0.resume(returning: context) }
    }

    func wait() async -> LoopBound<ContextPointer> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> LoopBound<ContextPointer>? in
                switch state {
                case .ready(let context): return context
                case .starting(var waiters):
                    waiters.append(continuation)
                    state = .starting(waiters)
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
