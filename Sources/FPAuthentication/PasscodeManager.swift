import FPStore
import Foundation

/// Setting, changing and removing a user's passcode. Change and remove need the
/// current passcode, checked with the same counters and lockout as an evaluation.
public struct PasscodeManager: Sendable {
    public let context: AuthenticationContext

    public init(context: AuthenticationContext) {
        self.context = context
    }

    private var environment: AuthEnvironment { context.environment }

    /// Sets the first passcode. Fails when one is already set (use ``change(to:prompt:)``).
    public func set(_ passcode: String) throws(AuthError) {
        if try context.passcodeRecord() != nil {
            throw AuthError(.invalidInput, "\(environment.user) already has a passcode; use 'fpbridge passcode change'")
        }
        try store(passcode)
    }

    /// Replaces the passcode after checking the current one through `prompt`.
    public func change(to passcode: String, prompt: any AuthPrompt) async throws(AuthError) {
        try validate(passcode)
        _ = try await context.unlockWithPasscode(reason: "Enter your current passcode", prompt: prompt)
        try store(passcode)
    }

    /// Removes the passcode after checking it through `prompt`.
    public func remove(prompt: any AuthPrompt) async throws(AuthError) {
        _ = try await context.unlockWithPasscode(reason: "Enter your current passcode", prompt: prompt)
        do { try environment.passcodes.remove(user: environment.user) } catch { throw AuthError(error) }
    }

    private func validate(_ passcode: String) throws(AuthError) {
        let minimum = environment.configuration.minimumPasscodeLength
        guard passcode.count >= minimum else {
            throw AuthError(.invalidInput, "the passcode must be at least \(minimum) characters long")
        }
    }

    private func store(_ passcode: String) throws(AuthError) {
        try validate(passcode)
        let record = try PasscodeHasher.hash(passcode, rounds: environment.configuration.passcodeHashRounds)
        do { try environment.passcodes.save(record, user: environment.user) } catch { throw AuthError(error) }
    }
}
