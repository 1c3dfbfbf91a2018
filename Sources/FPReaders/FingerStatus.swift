/// Who hears, during a reader's operation, each change of libfprint's finger-status flags
/// (FP_FINGER_STATUS_NEEDED, FP_FINGER_STATUS_PRESENT): fprintd's D-Bus face, whose
/// `finger-needed` and `finger-present` properties are those flags. A task-local, as
/// ``FingerPresence`` is, so that no reader's API and no engine event carries it: the engine,
/// the socket's wire format, the CLI and the kiosk are unchanged. Every change is told before
/// the operation's result (or its next event) is handed back, so a listener that keeps them in
/// order sees them where they happened among the operation's events. A change that comes once
/// the reader decided the match (libfprint's match callback) is marked `decided`: fprintd tells
/// the match as it is decided, so such a change belongs after the result, even when the result
/// is handed back only at the operation's end (virtual_device clears NEEDED first).
package enum FingerStatus {
    @TaskLocal package static var listener: FingerStatusListener?

    /// Runs `body` with `onChange` as the listener.
    package static func listening<T: Sendable>(_ onChange: @escaping @Sendable (_ status: FingerStatusFlags) -> Void,
                                               _ body: () async throws -> T) async throws -> T {
        try await $listener.withValue(FingerStatusListener(onChange), operation: body)
    }
}

/// One change: the flags' new values.
package struct FingerStatusFlags: Sendable, Equatable {
    package var present: Bool
    package var needed: Bool
    /// The operation's match was decided before this change.
    package var decided: Bool
}

/// What ``FingerStatus`` calls with each change.
package final class FingerStatusListener: Sendable {
    package let onChange: @Sendable (_ status: FingerStatusFlags) -> Void

    package init(_ onChange: @escaping @Sendable (_ status: FingerStatusFlags) -> Void) {
        self.onChange = onChange
    }
}
