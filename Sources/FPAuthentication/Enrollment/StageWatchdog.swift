import FPVocabulary

/// A deadline that moves forward each time progress is reported.
final class StageWatchdog: Sendable {
    private let timeout: Duration
    private let deadline: Locked<ContinuousClock.Instant>

    init(timeout: Duration) {
        self.timeout = timeout
        deadline = Locked(.now + timeout)
    }

    func touch() {
        deadline.withLock { $0 = .now + timeout }
    }

    /// Returns once the deadline passes with no progress since.
    func wait() async throws {
        while true {
            let current = deadline.withLock { $0 }
            if current <= .now { return }
            try await Task.sleep(until: current, clock: .continuous)
        }
    }
}
