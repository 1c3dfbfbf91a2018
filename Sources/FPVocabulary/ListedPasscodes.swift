/// A prompt that answers passcode requests from a list, in order, then gives up
/// (as a user who cancels would). For scripts, demos and tests; also for a front
/// end that read the passcode before the engine asked.
public final class ListedPasscodes: AuthPrompt {
    private let queue: Locked<[Passcode]>

    /// A prompt that answers with these passcodes, in order.
    public init(_ passcodes: [Passcode]) {
        queue = Locked(passcodes)
    }

    /// The next passcode of the list; nil once it is used up.
    public func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? {
        queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
