import Synchronization

/// A prompt that answers passcode requests from a list, in order, then gives up
/// (as a user who cancels would). For scripts, demos and tests; also for a front
/// end that read the passcode before the engine asked.
public final class ListedPasscodes: AuthPrompt {
    private let queue: Mutex<[Passcode]>

    public init(_ passcodes: [Passcode]) {
        queue = Mutex(passcodes)
    }

    public func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? {
        queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
