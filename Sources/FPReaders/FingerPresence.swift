/// Who hears, during a match, that a finger is now on the sensor and matching has begun: the
/// engine, which tells the front end to stop saying "place your finger" (a large gallery can
/// take seconds). A task-local, so that a reader reports it without a parameter in every
/// reader's API; each reader calls ``report()`` once per scan, when it sees the finger.
package enum FingerPresence {
    /// The listener, a class rather than a bare closure: with an optional closure as its value,
    /// Swift 6.3's release build of `withValue` crashed in `swift_task_localValuePush` on every
    /// match (found by the benchmark's release binaries; scripts/release-smoke.sh runs them now).
    @TaskLocal package static var listener: FingerListener?

    /// Tells the listener of the current task, if any.
    package static func report() {
        listener?.onFinger()
    }

    /// Runs `body` with `onFinger` as the listener.
    package static func listening<T: Sendable>(_ onFinger: @escaping @Sendable () -> Void,
                                               _ body: () async throws -> T) async throws -> T {
        try await $listener.withValue(FingerListener(onFinger), operation: body)
    }
}

/// What ``FingerPresence`` calls when the finger is on the sensor.
package final class FingerListener: Sendable {
    package let onFinger: @Sendable () -> Void

    package init(_ onFinger: @escaping @Sendable () -> Void) {
        self.onFinger = onFinger
    }
}
