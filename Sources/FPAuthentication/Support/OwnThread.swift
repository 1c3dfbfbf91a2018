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

    static let threads = BlockingThreads(name: "fpbridge-kdf", limit: maximumThreads)

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws(AuthError) -> T) async throws(AuthError) -> T {
        try await threads.run(work)
    }
}
