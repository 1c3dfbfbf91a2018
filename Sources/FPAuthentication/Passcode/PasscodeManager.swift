import FPStore
import FoundationEssentials

/// Setting, changing and removing a user's passcode, with Apple's rules:
/// replacing or removing a passcode needs the current one (checked with the
/// same counters and lockout as an evaluation), and removing it removes the
/// user's prints, since prints without a passcode could never be recovered
/// from a lockout. Every check-then-write happens under the state lock.
public struct PasscodeManager: Sendable {
    /// The context whose user and state directory are used.
    public let context: AuthenticationContext

    package init(context: AuthenticationContext) {
        self.context = context
    }

    private var environment: AuthEnvironment { context.environment }

    /// Whether the user has a passcode (a damaged record is an error naming its file).
    public var isSet: Bool {
        get throws(AuthError) { try context.passcodeRecord() != nil }
    }

    /// Sets the passcode. When one is already set, the current one is asked
    /// for through `prompt` first, as ``change(to:prompt:)`` does.
    public func set(_ passcode: Passcode, prompt: any AuthPrompt = NoPasscodePrompt()) async throws(AuthError) {
        try validate(passcode)
        if try context.passcodeRecord() != nil {
            try await change(to: passcode, prompt: prompt)
            return
        }
        // Prints without a passcode (state from before this rule) under lockout: a new
        // passcode must not become a way to clear that lockout.
        // The failure lockout alone: iOS's time rules end with the password, which needs no passcode.
        if let block = context.counterLockoutProblem(.user(environment.user)) {
            throw AuthError(block.code, "\(block.message); with no passcode set, only an administrator can lift it "
                            + "(by repairing the state, or by deleting the prints)")
        }
        let record = try await PasscodeHasher.hash(passcode, rounds: environment.configuration.passcodeHashRounds)
        let rules = environment.lockoutRules
        try write { existing in
            guard existing == nil else {
                throw AuthError(.authenticationFailed,
                                "a passcode was set for \(environment.user) by someone else meanwhile; nothing was changed")
            }
            // Again under the lock: a failure counted (or a lockout begun) since the check above.
            let scope = CounterScope.user(environment.user)
            let counter: AttemptCounter
            do { counter = try environment.counters.load(scope) } catch { counter = .placeholder(for: error) }
            if let block = rules.biometricBlock(counter, scope: scope, path: environment.counters.path(for: scope)) {
                throw AuthError(block.code, "\(block.message); with no passcode set, only an administrator can lift it")
            }
            // Its counter first, at its fixed size: a passcode that could not be counted is not set.
            try environment.counters.reserve(.user(environment.user))
            try environment.passcodes.save(record, user: environment.user)
        }
    }

    /// Replaces the passcode after checking the current one through `prompt`.
    public func change(to passcode: Passcode, prompt: any AuthPrompt) async throws(AuthError) {
        try validate(passcode)
        let current = try await verifyCurrent(prompt)
        let record = try await PasscodeHasher.hash(passcode, rounds: environment.configuration.passcodeHashRounds)
        try write { existing in
            try requireUnchanged(existing, current)
            try environment.passcodes.save(record, user: environment.user)
        }
    }

    /// Removes the passcode after checking it through `prompt`, and with it the
    /// user's prints (from the sensor too where they live there and the reader is
    /// at hand); every key of the user is invalidated. Returns the prints removed.
    @discardableResult
    public func remove(prompt: any AuthPrompt) async throws(AuthError) -> [PrintRecord] {
        let current = try await verifyCurrent(prompt)
        // The files, the passcode and the keys go in one hold of the lock, so that no enrollment
        // can save a print in between (it checks the passcode under the lock). Copies on the
        // sensor need the reader, which is never used under the lock: they go after, and only
        // once the rest is done (a copy left behind matches nothing: the gallery is the files).
        var removed: [PrintRecord] = []
        try write { existing in
            try requireUnchanged(existing, current)
            // In the order that leaves a safe state if one step fails: keys invalidated, then
            // prints gone, and the passcode last (never a print or a usable key without one).
            // Each step reads everything it needs before it changes anything.
            try KeyRules.passcodeRemoved(user: environment.user, directory: environment.stateDirectory)
            removed = try environment.prints.removeAll(user: environment.user)
            try environment.passcodes.remove(user: environment.user)
        }
        await Enrollment(context: context).deleteFromSensor(removed)
        return removed
    }

    private func verifyCurrent(_ prompt: any AuthPrompt) async throws(AuthError) -> PasscodeRecord {
        do {
            return try await PasscodeSession(context: context, prompt: prompt, reason: "Enter your current passcode").verify().record
        } catch {
            throw AuthError(error)
        }
    }

    private func requireUnchanged(_ existing: PasscodeRecord?, _ verified: PasscodeRecord) throws {
        guard verified.isSamePasscode(as: existing) else {
            throw AuthError(.authenticationFailed,
                            "the passcode of \(environment.user) was changed by someone else meanwhile; nothing was changed")
        }
    }

    /// Reads the record and writes under one hold of the state lock.
    private func write(_ body: (PasscodeRecord?) throws -> Void) throws(AuthError) {
        do {
            try StateLock(directory: environment.stateDirectory).withLock {
                try body(try environment.passcodes.record(user: environment.user))
            }
        } catch {
            throw AuthError(error)
        }
    }

    private func validate(_ passcode: Passcode) throws(AuthError) {
        let minimum = environment.configuration.minimumPasscodeLength
        guard passcode.length >= minimum else {
            throw AuthError(.invalidInput, "the passcode must be at least \(minimum) characters long")
        }
    }
}
