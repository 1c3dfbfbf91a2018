import Dispatch

/// Runs blocking work (pipe reads, socket I/O, waiting for a child) off Swift's
/// cooperative pool. On a two-core machine that pool has two threads, and two
/// blocked readers would starve every other task of the test, including the one
/// that plays the finger.
@discardableResult
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
    }
}
