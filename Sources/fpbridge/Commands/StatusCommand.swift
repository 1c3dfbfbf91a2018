import ArgumentParser
import FPAuthentication
import FPReaders
import FPStore
import Foundation

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the user's failure counts, lockouts, passcode state, enrollment state hash and the reader's temperature and identification lockout (opens no reader).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let directory = options.stateDirectory
        let user = options.userName
        let configuration = try options.configuration()
        let context = AuthenticationContext(environment: try ReaderSession.environment(options, reader: nil))
        let status = context.lockoutStatus(.user(user))
        let passcode: String
        do { passcode = try PasscodeStore(directory: directory).record(user: user) != nil ? "set" : "not set" } catch { passcode = "damaged: \(error)" }
        let entries: [PrintEntry]
        do { entries = try PrintStore(directory: directory).checkedEntries(user: user, reader: nil) } catch { throw AuthError(error) }
        let damagedPrints = entries.compactMap { entry -> String? in
            if case .damaged(let error) = entry { return error.description }
            return nil
        }
        let hash = damagedPrints.isEmpty ? try context.enrollmentStateHash() : nil
        // The reader is looked at, not opened: its temperature tells whether it must rest.
        let reader = try? await options.selection().candidates().first
        let info = await reader?.info
        let readerStatus = info.map { context.lockoutStatus(.reader(driver: $0.identity.driver, deviceID: $0.identity.deviceID)) }
        let fields: [String: JSONValue] = [
            "reader": info.map { info in
                ["driver": .string(info.identity.driver), "deviceId": .string(info.identity.deviceID),
                 "name": .string(info.name), "temperature": .string(info.temperature.rawValue),
                 "identification": Self.json(readerStatus!)]
            } ?? .null,
            "user": .string(user),
            "stateDirectory": .string(directory.path),
            "biometry": Self.json(status, extra: ["lockoutThreshold": .int(configuration.biometricLockoutThreshold)]),
            "passcode": [
                "set": .bool(passcode == "set"),
                "damaged": .bool(passcode.hasPrefix("damaged")),
                "refused": .bool(status.damagedCounter != nil),
                "failures": status.passcodeFailures.map(JSONValue.int) ?? .null,
                "attemptsBeforeLockout": .int(configuration.passcodeAttemptsBeforeLockout),
                "lockedOut": .bool(status.passcodeRetryAfter != nil),
                "retryAfter": status.passcodeRetryAfter.map(JSONValue.double) ?? .null,
            ],
            "enrollmentStateHash": .optional(hash),
            "damagedPrints": .array(damagedPrints.map(JSONValue.string)),
        ]
        var text = "user: \(user)\nbiometry: " + Self.text(status, threshold: configuration.biometricLockoutThreshold)
        text += "\npasscode: \(passcode)"
        if let failures = status.passcodeFailures { text += ", \(failures) wrong in a row" }
        if status.damagedCounter != nil { text += ", REFUSED until the counter is repaired" }
        if let retryAfter = status.passcodeRetryAfter { text += ", locked for \(Int(retryAfter)) more seconds" }
        text += "\nenrollment state hash: \(hash ?? (damagedPrints.isEmpty ? "none (no prints)" : "unknown (damaged prints)"))"
        for damaged in damagedPrints { text += "\ndamaged print: \(damaged)" }
        if let info, let readerStatus {
            text += "\nreader: \(info.identity) \(info.name), \(info.temperature.rawValue)"
                + (info.temperature == .hot ? " (resting: it scans again after about \(Int(ReaderTemperature.coolingTime)) s idle)" : "")
            text += "\nidentification on this reader: " + Self.text(readerStatus, threshold: nil)
        }
        options.console.success(text, fields)
    }

    private static func json(_ status: LockoutStatus, extra: [String: JSONValue] = [:]) -> JSONValue {
        var fields: [String: JSONValue] = [
            "failures": status.failures.map(JSONValue.int) ?? .null,
            "attemptsLeftBeforeLockout": .int(status.attemptsLeftBeforeLockout),
            "lockedOut": .bool(status.lockedOut),
            "retryAfter": status.retryAfter.map(JSONValue.double) ?? .null,
            "counterDamaged": .bool(status.damagedCounter != nil),
        ]
        if let path = status.damagedCounter { fields["counterPath"] = .string(path) }
        fields.merge(extra) { $1 }
        return .object(fields)
    }

    private static func text(_ status: LockoutStatus, threshold: Int?) -> String {
        if let path = status.damagedCounter {
            return "LOCKED OUT: the counter file \(path) is damaged (repair it: fpbridge repair)"
        }
        var text = "\(status.failures ?? 0) failed" + (threshold.map { " of \($0)" } ?? " in a row")
        if let message = status.message { text += ", LOCKED OUT (\(message))" } else {
            text += ", \(status.attemptsLeftBeforeLockout) before lockout"
        }
        return text
    }
}
