import FPStore
import Foundation

/// Asks for the passcode until it is right, the user gives up, or the passcode locks.
struct PasscodeSession {
    let context: AuthenticationContext
    let prompt: any AuthPrompt
    let reason: String

    private enum Check { case correct, wrong(lockedUntil: Date?), locked(until: Date) }

    func run() async throws -> AuthSuccess {
        let environment = context.environment
        let configuration = environment.configuration
        let user = environment.user
        guard let record = try context.passcodeRecord() else {
            throw AuthError(.passcodeNotSet, "no passcode is set for \(user); set one with 'fpbridge passcode set'")
        }
        let path = try environment.passcodes.path(user: user)
        var wrongAttempts = 0
        while true {
            let counter = context.counter(.user(user))
            if let until = counter.passcodeLockedUntil, until > Date() {
                throw Self.lockout(until)
            }
            if context.interactionNotAllowed {
                throw AuthError(.notInteractive, "the passcode is needed but interaction is not allowed")
            }
            let left = max(0, configuration.passcodeAttemptsBeforeLockout - counter.passcodeFailures)
            context.emit(.passcodeRequested(attemptsLeftBeforeLockout: left))
            guard let entered = await prompt.passcode(reason: reason, attemptsLeftBeforeLockout: left) else {
                throw wrongAttempts > 0
                    ? AuthError(.authenticationFailed, "wrong passcode")
                    : AuthError(.userCancel, "no passcode was entered")
            }
            // Check and count under the lock, so that guesses made in parallel all count.
            var check = Check.correct
            let updated = try environment.counters.update(.user(user)) { counter in
                if let until = counter.passcodeLockedUntil, until > Date() {
                    check = .locked(until: until)
                } else if try PasscodeHasher.matches(entered, record, path: path) {
                    counter = AttemptCounter()
                    check = .correct
                } else {
                    counter.passcodeFailures += 1
                    let wait = configuration.passcodeWait(afterFailures: counter.passcodeFailures)
                    counter.passcodeLockedUntil = wait.map { Date().addingTimeInterval($0) }
                    check = .wrong(lockedUntil: counter.passcodeLockedUntil)
                }
            }
            switch check {
            case .correct:
                if let reader = environment.reader {
                    let identity = await reader.info.identity
                    try environment.counters.update(.reader(driver: identity.driver, deviceID: identity.deviceID)) {
                        $0 = AttemptCounter()
                    }
                }
                return AuthSuccess(method: .passcode, user: user, finger: nil)
            case .locked(let until):
                throw Self.lockout(until)
            case .wrong(let lockedUntil):
                wrongAttempts += 1
                if let lockedUntil { throw Self.lockout(lockedUntil) }
                context.emit(.passcodeRejected(
                    attemptsLeftBeforeLockout: max(0, configuration.passcodeAttemptsBeforeLockout - updated.passcodeFailures)))
            }
        }
    }

    private static func lockout(_ until: Date) -> AuthError {
        let wait = max(1, until.timeIntervalSinceNow.rounded(.up))
        return AuthError(.passcodeLockout, "too many wrong passcodes; try again in \(Int(wait)) seconds", retryAfter: wait)
    }
}
