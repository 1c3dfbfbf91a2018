import FPVocabulary
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

        package init(identity: ReaderIdentity, name: String, temperature: ReaderTemperature, identification: LockoutStatus) {
            self.identity = identity
            self.name = name
            self.temperature = temperature
            self.identification = identification
        }
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

    /// A report from its parts (the engine's side reads them: FPLocalAPIEngine).
    package init(mode: String, testMode: Bool, user: String, stateDirectory: String, biometry: LockoutStatus,
                 lockoutThreshold: Int, passcode: String, passcodeAttemptsBeforeLockout: Int,
                 enrollmentStateHash: String?, damagedPrints: [String], reader: Reader?) {
        self.mode = mode
        self.testMode = testMode
        self.user = user
        self.stateDirectory = stateDirectory
        self.biometry = biometry
        self.lockoutThreshold = lockoutThreshold
        self.passcode = passcode
        self.passcodeAttemptsBeforeLockout = passcodeAttemptsBeforeLockout
        self.enrollmentStateHash = enrollmentStateHash
        self.damagedPrints = damagedPrints
        self.reader = reader
    }
}
