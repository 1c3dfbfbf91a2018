import FPCore
import Foundation

/// One thread of fpbridge's own that runs async work for synchronous callers.
///
/// `canEvaluatePolicy(_:error:)` is synchronous, as on Apple platforms, yet
/// finding the reader is async. Blocking the caller while that work runs on
/// Swift's shared threads could deadlock when every shared thread is such a
/// caller; run on this thread (actors included, through the task executor
/// preference) the work never needs a shared thread.
///
/// The thread is a ``DetachedThread`` (FPCore), as every thread of fpbridge's own is.
final class WorkerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = WorkerExecutor()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    /// The worker thread, once it runs (under `condition`).
    private var thread: pthread_t?

    private init() {
        DetachedThread.start(name: "fpbridge-worker") { [self] in
            condition.lock()
            thread = pthread_self()
            condition.broadcast()
            condition.unlock()
            runLoop()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    private func runLoop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Runs `body` on the worker thread and blocks the calling thread until it returns.
    /// Nil when called from the worker thread itself, which would wait for itself forever.
    func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T? {
        if isCurrent { return nil }
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task(executorPreference: self) {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value
    }
}

/// The value handed from the worker thread to the waiting caller; the semaphore orders the accesses.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
