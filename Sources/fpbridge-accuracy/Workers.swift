import Synchronization
import Dispatch

/// A fixed number of threads taking indices from one counter: the tool's parallelism
/// (Dispatch's concurrentPerform would take every core, and the machine is shared).
enum Workers {
    /// `body(i)` for i in 0..<count on `jobs` threads; the results in index order. The first
    /// error thrown is rethrown once every thread has stopped taking work.
    static func map<T: Sendable>(_ count: Int, jobs: Int, _ body: @Sendable @escaping (Int) throws -> T) throws -> [T] {
        let results = Mutex<[T?]>(Array(repeating: nil, count: count))
        let failure = Mutex<(any Error)?>(nil)
        let next = Atomic<Int>(0)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, count)) {
            DispatchQueue.global().async(group: group) {
                while failure.withLock({ $0 == nil }) {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < count else { return }
                    do {
                        let value = try body(index)
                        results.withLock { $0[index] = value }
                    } catch {
                        failure.withLock { if $0 == nil { $0 = error } }
                    }
                }
            }
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { $0.map { $0! } }
    }
}
