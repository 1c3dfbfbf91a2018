#if canImport(Glibc)
import Glibc
#endif

/// A bounded way off Swift's cooperative pool for slow synchronous work (scrypt, a bozorth3
/// search): each piece runs on a thread of its own (``DetachedThread``), at most `limit` at
/// once, and later work waits its turn in a ``ThreadBudget`` holding no thread at all.
///
/// The pool has one thread a core; work that holds one for a tenth of a second or more stalls
/// every other task. An unbounded queue is no better: under a flood it runs as many at once as
/// it is given threads, each with its memory (32 MiB for a login's scrypt), for no more speed.
package struct BlockingThreads: Sendable {
    /// The name each thread takes (Linux keeps its first 15 bytes).
    package let name: String
    /// The places: how many run at once, and who waits.
    package let budget: ThreadBudget

    /// Threads named `name`, at most `limit` at once.
    package init(name: String, limit: Int) {
        self.name = name
        budget = ThreadBudget(limit: max(1, limit))
    }

    /// Runs `work` on a thread of its own once a place is free; the caller's task waits without a thread.
    package func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        await budget.acquire()
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            DetachedThread.start(name: name) {
                do throws(E) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        await budget.release()
        return try result.get()
    }

    /// The cores online: the bound for work that only computes (more at once share the same cores).
    package static var onlineCores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}

/// Places for work on threads of its own; waiting for one holds no thread.
package actor ThreadBudget {
    /// The most places in use at once.
    package let limit: Int
    private var inUse = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A budget of `limit` places.
    package init(limit: Int) {
        self.limit = limit
    }

    /// How many callers wait for a place now (for tests that check the bound without timing).
    package var waitingCount: Int { waiting.count }

    /// Takes a place, waiting (without a thread) until one is free.
    package func acquire() async {
        if inUse < limit {
            inUse += 1
            return
        }
        // The place is handed over by release(), still counted as in use.
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a place back, to the longest waiting caller if there is one.
    package func release() {
        if waiting.isEmpty {
            inUse -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
