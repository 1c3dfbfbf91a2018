import ArgumentParser
import FPAuthentication
import FPReaders
import FPStore
import Foundation

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the user's failure counts, lockouts, passcode state, enrollment state hash and the reader's temperature (opens no reader).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let directory = options.stateDirectory
        let user = options.userName
        let configuration = try options.configuration()
        let counters = CounterStore(directory: directory)
        let counter = counters.counter(for: .user(user))
        let context = AuthenticationContext(environment: try ReaderSession.environment(options, reader: nil))
        let hash = try context.enrollmentStateHash()
        let passcodeSet: Bool
        do { passcodeSet = try PasscodeStore(directory: directory).record(user: user) != nil } catch { throw AuthError(error) }
        let lockedUntil = counter.passcodeLockedUntil.flatMap { $0 > Date() ? $0 : nil }
        let retryAfter = lockedUntil.map { $0.timeIntervalSinceNow.rounded(.up) }
        // The reader is looked at, not opened: its temperature tells whether it must rest.
        let reader = try? await options.selection().candidates().first
        let info = await reader?.info
        let fields: [String: JSONValue] = [
            "reader": info.map { info in
                ["driver": .string(info.identity.driver), "deviceId": .string(info.identity.deviceID),
                 "name": .string(info.name), "temperature": .string(info.temperature.rawValue)]
            } ?? .null,
            "user": .string(user),
            "stateDirectory": .string(directory.path),
            "biometry": [
                "failures": .int(counter.biometricFailures),
                "lockoutThreshold": .int(configuration.biometricLockoutThreshold),
                "attemptsLeftBeforeLockout": .int(max(0, configuration.biometricLockoutThreshold - counter.biometricFailures)),
                "lockedOut": .bool(counter.biometryLockedOut),
                "counterDamaged": .bool(counter.damaged),
            ],
            "passcode": [
                "set": .bool(passcodeSet),
                "failures": .int(counter.passcodeFailures),
                "attemptsBeforeLockout": .int(configuration.passcodeAttemptsBeforeLockout),
                "lockedOut": .bool(lockedUntil != nil),
                "retryAfter": retryAfter.map(JSONValue.double) ?? .null,
            ],
            "enrollmentStateHash": .optional(hash),
        ]
        var text = """
        user: \(user)
        biometry: \(counter.biometricFailures) failed of \(configuration.biometricLockoutThreshold)\
        \(counter.biometryLockedOut ? ", LOCKED OUT (enter the passcode: fpbridge unlock)" : "")\
        \(counter.damaged ? " (counter file damaged: \(counters.path(for: .user(user))))" : "")
        passcode: \(passcodeSet ? "set" : "not set"), \(counter.passcodeFailures) wrong in a row
        """
        if let retryAfter { text += ", locked for \(Int(retryAfter)) more seconds" }
        text += "\nenrollment state hash: \(hash ?? "none (no prints)")"
        if let info {
            text += "\nreader: \(info.identity) \(info.name), \(info.temperature.rawValue)"
                + (info.temperature == .hot ? " (resting: it scans again after about \(Int(ReaderTemperature.coolingTime)) s idle)" : "")
        }
        options.console.success(text, fields)
    }
}
