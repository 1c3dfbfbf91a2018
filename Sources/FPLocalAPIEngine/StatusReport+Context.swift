import FPAuthentication
import FPLocalAPI
import FPStore

extension StatusReport {
    /// Reads the state of the context's user; `reader` is the reader's description, if one is present.
    package init(context: AuthenticationContext, reader info: ReaderInfo?, mode: String, testMode: Bool) throws(AuthError) {
        let environment = context.environment
        let user = environment.user
        let passcode: String
        do {
            passcode = try PasscodeStore(directory: environment.stateDirectory).record(user: user) != nil ? "set" : "not set"
        } catch {
            passcode = "damaged: \(error)"
        }
        let entries: [PrintEntry]
        do { entries = try PrintStore(directory: environment.stateDirectory).checkedEntries(user: user, reader: nil) } catch {
            throw AuthError(error)
        }
        let damagedPrints = PrintList(user: user, entries: entries).damaged
        self.init(mode: mode, testMode: testMode, user: user, stateDirectory: environment.stateDirectory.path,
                  biometry: context.lockoutStatus(.user(user)),
                  lockoutThreshold: environment.configuration.biometricLockoutThreshold,
                  passcode: passcode,
                  passcodeAttemptsBeforeLockout: environment.configuration.passcodeAttemptsBeforeLockout,
                  enrollmentStateHash: damagedPrints.isEmpty ? try context.enrollmentStateHash() : nil,
                  damagedPrints: damagedPrints,
                  reader: info.map { info in
                      Reader(identity: info.identity, name: info.name, temperature: info.temperature,
                             identification: context.lockoutStatus(.reader(driver: info.identity.driver,
                                                                           deviceID: info.identity.deviceID)))
                  })
    }
}
