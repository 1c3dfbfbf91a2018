/// The kiosk's time: what it reads and how it waits. Injected so that the identify loop's
/// tests run an hour of rests and bursts in a moment instead of waiting them out.
package protocol KioskClock: Sendable {
    /// Seconds on a monotonic scale (only differences mean anything).
    var now: Double { get }
    /// Waits `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: Double) async throws
}

/// The real clock.
package struct SystemKioskClock: KioskClock {
    private let origin = ContinuousClock.now

    package init() {}

    package var now: Double {
        (ContinuousClock.now - origin).inSeconds
    }

    package func sleep(seconds: Double) async throws {
        try await Task.sleep(for: .milliseconds(Int64(max(0, seconds) * 1000)))
    }
}
