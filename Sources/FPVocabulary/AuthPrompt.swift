/// What the engine asks of the person in front of the reader, beyond their finger.
public protocol AuthPrompt: Sendable {
    /// Asks for the passcode. Returns nil when the user cancels or no input is left.
    /// Must end promptly when its task is cancelled: the engine cancels it at the
    /// passcode timeout and when the evaluation is cancelled.
    func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode?
}

/// A prompt for contexts that never ask for a passcode.
public struct NoPasscodePrompt: AuthPrompt {
    /// A prompt that never has a passcode.
    public init() {}
    /// Always nil: the passcode counts as not given.
    public func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? { nil }
}
