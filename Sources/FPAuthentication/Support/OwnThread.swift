import FPCore
import FoundationEssentials

/// Runs slow synchronous work (scrypt takes a tenth of a second and more) on a
/// thread of its own, so that it never holds one of the few threads Swift
/// concurrency runs every task on, nor the caller's.
///
/// The threads are bounded: at most ``maximumThreads`` run at once and later work waits its
/// turn without holding a thread, so that many passcode checks at once (32 connections per
/// user of the service, times its users) cannot start a thread each.
enum OwnThread {
    /// The most threads that run work at once.
    static let maximumThreads = 4

    static let budget = ThreadBudget(limit: maximumThreads)

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws(AuthError) -> T) async throws(AuthError) -> T {
        await budget.acquire()
        let result: Result<T, AuthError> = await withCheckedContinuation { continuation in
            DetachedThread.start(name: "fpbridge-kdf") {
                do throws(AuthError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        await budget.release()
        return try result.get()
    }
}

/// Places for work on threads of its own; waiting for one holds no thread.
actor ThreadBudget {
    let limit: Int
    private var inUse = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = limit
    }

    func acquire() async {
        if inUse < limit {
            inUse += 1
            return
        }
        // The place is handed over by release(), still counted as in use.
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            inUse -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
