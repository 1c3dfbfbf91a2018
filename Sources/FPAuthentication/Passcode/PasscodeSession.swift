import FPStore
import FoundationEssentials

/// Asks for the passcode until it is right, the user gives up, or the passcode locks.
///
/// scrypt runs outside the state lock (one user's guesses must not slow every
/// other user's scans); the count and the decision are then taken in one step
/// under the lock, against the record as it is at that moment.
struct PasscodeSession {
    let context: AuthenticationContext
    let prompt: any AuthPrompt
    let reason: String

    /// Empty entries in a row after which the prompt counts as abandoned.
    static let maximumEmptyEntries = 3

    private enum Decision { case correct, wrong(AuthError?), recordChanged }

    /// What the prompt answered, nil included (the deadline's own nil means time ran out).
    private struct Answer: Sendable {
        let passcode: Passcode?
        init(_ passcode: Passcode?) { self.passcode = passcode }
    }

    func run() async throws -> AuthSuccess {
        try await verify().success
    }

    /// Checks the passcode; returns the success and the record it matched.
    func verify() async throws -> (success: AuthSuccess, record: PasscodeRecord) {
        let environment = context.environment
        let user = environment.user
        let scope = CounterScope.user(user)
        let path = try environment.passcodes.path(user: user)
        try context.reserveCounter(scope, passcode: true)
        var wrongAttempts = 0
        var emptyEntries = 0
        while true {
            guard let record = try context.passcodeRecord() else {
                throw AuthError(.passcodeNotSet, "no passcode is set for \(user)")
            }
            let counter = context.counter(scope)
            if let block = environment.lockoutRules.passcodeBlock(counter, path: environment.counters.path(for: scope)) { throw block }
            if context.interactionNotAllowed {
                throw AuthError(.notInteractive, "the passcode is needed but interaction is not allowed")
            }
            let left = max(0, environment.configuration.passcodeAttemptsBeforeLockout - counter.passcodeFailures)
            context.emit(.passcodeRequested(attemptsLeftBeforeLockout: left))
            let seconds = environment.configuration.passcodeTimeoutSeconds
            let asked = try await withDeadline(.now + .milliseconds(Int(seconds * 1000)),
                                               timeout: AuthError(.timedOut, "no passcode was entered within \(SecondsText.words(seconds))")) {
                [prompt, reason] in Answer(await prompt.passcode(reason: reason, attemptsLeftBeforeLockout: left))
            }
            guard let entered = asked.passcode else {
                throw wrongAttempts > 0
                    ? AuthError(.authenticationFailed, "wrong passcode")
                    : AuthError(.userCancel, "no passcode was entered")
            }
            // An empty entry is a slip of the Enter key, not a guess.
            if entered.isEmpty {
                emptyEntries += 1
                if emptyEntries >= Self.maximumEmptyEntries { throw AuthError(.userCancel, "no passcode was entered") }
                continue
            }
            emptyEntries = 0
            let matches = try await PasscodeHasher.matches(entered, record, path: path)
            let decision = try decide(matches, record: record)
            switch decision {
            case .correct:
                return (AuthSuccess(method: .passcode, user: user, finger: nil), await addingPinDigest(entered, to: record))
            case .recordChanged:
                continue
            case .wrong(let lockout):
                wrongAttempts += 1
                if let lockout { throw lockout }
                let failures = context.counter(scope).passcodeFailures
                context.emit(.passcodeRejected(
                    attemptsLeftBeforeLockout: max(0, environment.configuration.passcodeAttemptsBeforeLockout - failures)))
            }
        }
    }

    /// One guess of CTAP's `pinHash` (a FIDO2 client's PIN, which is the passcode), counted
    /// and decided as a passcode entry is: a right one clears the failures and lifts the
    /// lockouts as the passcode does, a wrong one counts toward the passcode's waits.
    /// - Throws: `AuthErrorCode.authenticationFailed` (wrong), `AuthErrorCode.passcodeLockout`,
    ///   `AuthErrorCode.passcodeNotSet`, `AuthErrorCode.notPermitted` (a passcode set before
    ///   PINs were checked: it is entered once elsewhere first), `AuthErrorCode.stateDamaged`.
    func verify(pinHash: [UInt8]) async throws -> PasscodeRecord {
        let environment = context.environment
        let user = environment.user
        let scope = CounterScope.user(user)
        let path = try environment.passcodes.path(user: user)
        try context.reserveCounter(scope, passcode: true)
        while true {
            guard let record = try context.passcodeRecord() else {
                throw AuthError(.passcodeNotSet, "no passcode is set for \(user)")
            }
            if let block = environment.lockoutRules.passcodeBlock(context.counter(scope), path: environment.counters.path(for: scope)) {
                throw block
            }
            guard record.pinDigest != nil else {
                throw AuthError(.notPermitted, "\(user)'s passcode was set before it could serve as a security key's PIN; "
                                + "enter it once to fpbridge (an enrollment, or fpbridge passcode change) and the PIN works")
            }
            let matches = try await PasscodeHasher.matches(pinHash: pinHash, record, path: path)
            switch try decide(matches, record: record) {
            case .correct: return record
            case .recordChanged: continue
            case .wrong(let lockout):
                throw AuthError(.authenticationFailed, "wrong PIN" + (lockout.map { ": \($0.message)" } ?? ""))
            }
        }
    }

    /// The count and the decision for one entry, taken in one step under the state lock,
    /// against the record as it is at that moment.
    private func decide(_ matches: Bool, record: PasscodeRecord) throws -> Decision {
        let environment = context.environment
        let user = environment.user
        let scope = CounterScope.user(user)
        let rules = environment.lockoutRules
        return try context.recording(scope, passcode: true) { counters -> Decision in
            var counter = counters[scope]
            if let block = rules.passcodeBlock(counter, path: counters.path(scope)) { throw block }
            // Changed by another process while we hashed: check again against the new one.
            guard record.isSamePasscode(as: try environment.passcodes.record(user: user)) else { return .recordChanged }
            guard matches else {
                let lockout = rules.recordWrongPasscode(&counter)
                counters[scope] = counter
                return .wrong(lockout)
            }
            counters[scope] = LockoutRules.cleared(counter)
            // Written even when unchanged: correct is reported only where wrong could have been counted.
            counters.commit(scope)
            rules.secretGiven(&counters[times: user])
            try unlockReaders(&counters)
            return .correct
        }
    }

    /// A record from before PIN digests gets one from the passcode that just matched it, so
    /// that the passcode serves as a security key's PIN from now on. Written only if the record
    /// is still exactly the one matched. Best effort: the passcode was right whatever happens
    /// here (its success is already counted), and a digest not written is made at the next
    /// entry; the PIN is refused until then, never accepted.
    private func addingPinDigest(_ passcode: Passcode, to record: PasscodeRecord) async -> PasscodeRecord {
        guard record.pinDigest == nil else { return record }
        let environment = context.environment
        do {
            let completed = try await PasscodeHasher.addingPinDigest(passcode, to: record)
            return try StateLock(directory: environment.stateDirectory).withLock {
                guard try environment.passcodes.record(user: environment.user) == record else { return record }
                try environment.passcodes.save(completed, user: environment.user)
                return completed
            }
        } catch {
            return record
        }
    }

    /// A correct passcode also lifts the identification lockout of every reader
    /// on which this user was enrolled before that lockout began; never one that
    /// a user enrolled later (or a user with no print there) could clear.
    private func unlockReaders(_ counters: inout CounterSet) throws {
        let environment = context.environment
        let records = try environment.prints.entries(user: environment.user, reader: nil).compactMap(\.record)
        let byReader = Dictionary(grouping: records, by: \.reader)
        for (reader, records) in byReader {
            let scope = CounterScope.reader(driver: reader.driver, deviceID: reader.deviceID)
            let counter = counters[scope]
            guard counter != LockoutRules.cleared(counter), LockoutRules.passcodeUnlocksReader(counter, prints: records)
            else { continue }
            counters[scope] = LockoutRules.cleared(counter)
        }
    }
}
