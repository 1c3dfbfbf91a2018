import FPStore
import FoundationEssentials

extension AuthenticationContext {
    /// iOS's remote lock (`fpbridge lock`): the user's password or passcode is needed before
    /// their next finger, on every door, whatever the clocks or the settings say
    /// (``LockoutRules/remoteLock(_:)``). Who may ask is the host's table (root or the user).
    /// - Throws: the write's failure (then nothing is locked, and the caller must say so).
    package func lockBiometry() throws(AuthError) {
        let user = environment.user
        let rules = environment.lockoutRules
        do {
            try environment.counters.transaction { counters in rules.remoteLock(&counters[times: user]) }
        } catch let failure as CounterWriteFailure {
            throw AuthError(.stateDamaged, "the lock of \(user) could not be recorded (\(failure.description)); nothing was locked")
        } catch {
            throw AuthError(error)
        }
    }
}
