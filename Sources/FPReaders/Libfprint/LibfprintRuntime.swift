import CLibfprint
import Synchronization

typealias DevicePointer = UnsafeMutablePointer<FpDevice>
typealias ContextPointer = UnsafeMutablePointer<FpContext>

/// The process's one libfprint context, living on the GLib loop thread.
///
/// Created on first use: the loop thread creates the `FpContext` and
/// enumerates readers before it starts serving work, so no caller ever sees a
/// half-enumerated context.
final class LibfprintRuntime: Sendable {
    static let shared = LibfprintRuntime()

    let loop: GLibMainLoop
    private let state = Mutex(State.starting(waiters: []))

    private enum State {
        case starting(waiters: [CheckedContinuation<Void, Never>])
        case ready(LoopBound<ContextPointer>)
    }

    private init() {
        let box = StateBox()
        loop = GLibMainLoop(name: "fpbridge-libfprint") {
            LibfprintLogging.install()
            let context = fp_context_new()!
            fp_context_enumerate(context)
            box.context = LoopBound(raw: context)
        }
        // The prepare closure cannot see `self`; hand the context over once
        // the loop serves work (work queued now runs after enumeration).
        loop.submit { [self] in
            let context = box.context!
            let waiters: [CheckedContinuation<Void, Never>] = self.state.withLock { current in
                guard case .starting(let waiters) = current else { return [] }
                current = .ready(context)
                return waiters
            }
            waiters.forEach { $0.resume() }
        }
    }

    /// The context, once enumeration has finished.
    func context() async -> LoopBound<ContextPointer> {
        let ready: LoopBound<ContextPointer>? = state.withLock { current in
            if case .ready(let context) = current { return context }
            return nil
        }
        if let ready { return ready }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { current -> Bool in
                switch current {
                case .ready: return true
                case .starting(var waiters):
                    waiters.append(continuation)
                    current = .starting(waiters: waiters)
                    return false
                }
            }
            if resumeNow { continuation.resume() }
        }
        return await context()
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

/// Carries the context from the loop thread's set-up to the first queued work.
/// Written once on the loop thread before any queued work runs there.
private final class StateBox: @unchecked Sendable {
    var context: LoopBound<ContextPointer>?
}
