import FPStore
import FoundationEssentials

extension AuthenticationContext {
    /// The user proved themselves with their login password in a PAM stack: their biometric
    /// lockout is lifted (``LockoutRules/passwordProved(_:)``), and iOS's rules are satisfied
    /// (``LockoutRules/secretGiven(_:)``). Only root may say so; the
    /// service and the CLI check that before calling this.
    /// - Returns: whether there was anything to lift (failures or a lockout).
    /// - Throws: `AuthErrorCode.stateDamaged` when the counter is damaged (repairing is the
    ///   administrator's), or the counter's write failure.
    package func passwordProved() throws(AuthError) -> Bool {
        let scope = CounterScope.user(environment.user)
        do {
            return try recording(scope, passcode: false) { counters -> Bool in
                var counter = counters[scope]
                if counter.unreadable != nil {
                    throw AuthError(.stateDamaged, "the failure counter of \(environment.user) cannot be used: "
                                    + counter.problem(at: counters.path(scope)))
                }
                if counter.damaged {
                    throw AuthError(.stateDamaged, "the failure counter of \(environment.user) is damaged (\(counters.path(scope))); "
                                    + "an administrator repairs it with fpbridge repair", cause: .damagedState)
                }
                let rules = environment.lockoutRules
                let user = environment.user
                let lifted = counter.biometricFailures > 0 || counter.biometryLockedOut
                    || rules.passwordRequirement(counters[times: user], user: user) != nil
                LockoutRules.passwordProved(&counter)
                counters[scope] = counter
                counters.commit(scope)
                rules.secretGiven(&counters[times: user])
                return lifted
            }
        } catch {
            throw AuthError(error)
        }
    }
}
