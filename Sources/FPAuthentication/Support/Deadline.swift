/// Runs `operation` until it finishes or the deadline passes; on time-out the
/// operation is cancelled (which stops the reader scanning) and `timeout` is thrown.
package func withDeadline<T: Sendable>(_ deadline: ContinuousClock.Instant, timeout: AuthError,
                               _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(until: deadline, clock: .continuous)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw timeout }
        return value
    }
}
