import FPAuthentication
import FoundationEssentials

/// Everything `fpbridge status` shows, computed where the state lives (in the CLI's
/// process, or in the service) and rendered by the CLI.
package struct StatusReport: Codable, Sendable, Hashable {
    /// The reader seen (never opened) and its identification lockout.
    package struct Reader: Codable, Sendable, Hashable {
        package var identity: ReaderIdentity
        package var name: String
        package var temperature: ReaderTemperature
        package var identification: LockoutStatus
    }

    /// Who answered: `in-process` (development: the caller's own files) or `service`.
    package var mode: String
    /// True when the service runs with `--test-mode` (fake reader and client-chosen state allowed).
    package var testMode: Bool
    package var user: String
    package var stateDirectory: String
    package var biometry: LockoutStatus
    package var lockoutThreshold: Int
    /// `set`, `not set`, or `damaged: WHY`.
    package var passcode: String
    package var passcodeAttemptsBeforeLockout: Int
    package var enrollmentStateHash: String?
    package var damagedPrints: [String]
    package var reader: Reader?

    /// Reads the state of the context's user; `reader` is the reader's description, if one is present.
    package init(context: AuthenticationContext, reader info: ReaderInfo?, mode: String, testMode: Bool) throws(AuthError) {
        let environment = context.environment
        let user = environment.user
        self.mode = mode
        self.testMode = testMode
        self.user = user
        stateDirectory = environment.stateDirectory.path
        biometry = context.lockoutStatus(.user(user))
        lockoutThreshold = environment.configuration.biometricLockoutThreshold
        passcodeAttemptsBeforeLockout = environment.configuration.passcodeAttemptsBeforeLockout
        do {
            passcode = try PasscodeStore(directory: environment.stateDirectory).record(user: user) != nil ? "set" : "not set"
        } catch {
            passcode = "damaged: \(error)"
        }
        let entries: [PrintEntry]
        do { entries = try PrintStore(directory: environment.stateDirectory).checkedEntries(user: user, reader: nil) } catch {
            throw AuthError(error)
        }
        damagedPrints = PrintList(user: user, entries: entries).damaged
        enrollmentStateHash = damagedPrints.isEmpty ? try context.enrollmentStateHash() : nil
        self.reader = info.map { info in
            Reader(identity: info.identity, name: info.name, temperature: info.temperature,
                   identification: context.lockoutStatus(.reader(driver: info.identity.driver, deviceID: info.identity.deviceID)))
        }
    }
}
