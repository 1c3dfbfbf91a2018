import Synchronization

/// A value behind a lock: the one lock every module of the project uses.
///
/// It is Synchronization's `Mutex`, called only through ``withLock(_:)``, which is never inlined.
/// The reason is a miscompilation seen in release builds (Swift 6.3.1, Linux): `Mutex` puts the
/// owner's thread id in its futex word, read by `gettid` through a call the optimizer treats as
/// pure; inlined into an async function, that read was hoisted above an `await`, the task resumed
/// on another thread, and the lock was taken and given back under the old thread's id. Unnoticed
/// while nobody waited for the lock; with a waiter, the kernel refused the unlock and the
/// process stopped ("Call to unlock Mutex on a thread which hasn't acquired the lock"): fpbridged
/// crashed when it closed a reader, one close in three (issue 38's booted system). Kept out of
/// line, the lock and the unlock run in one synchronous call, on one thread.
public struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>

    /// A lock around `value`.
    public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value while holding the lock; `body` must not suspend (it cannot:
    /// it is synchronous) and must not take the same lock again.
    @inline(never)
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock(body)
    }
}
