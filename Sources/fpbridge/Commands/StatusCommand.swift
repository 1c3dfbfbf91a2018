import FPLocalAPIEngine
import ArgumentParser
import FPAuthentication
import FPServiceClient
import FPReaders
import FPStore
import FoundationEssentials
import Glibc

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the user's failure counts, lockouts, passcode state, enrollment state hash and the reader's temperature and identification lockout (opens no reader).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let report: StatusReport
        var service: ServiceSummary?
        if let socket = try options.serviceSocket() {
            let query = ServiceSession.query(options)
            (report, service) = try await ServiceClient.with(socket: socket) { client in
                (try await client.get("status", query: query), try await client.get("service"))
            }
        } else {
            let context = AuthenticationContext(environment: try ReaderSession.environment(options, reader: nil))
            // The reader is looked at, not opened: its temperature tells whether it must rest.
            let reader = try? await options.selection().candidates().first
            report = try StatusReport(context: context, reader: await reader?.info, mode: "in-process", testMode: false)
        }
        var fields = Self.fields(report)
        var text = Self.text(report)
        if let service {
            fields["service"] = ["version": .string(service.version), "fprintdBus": .string(service.fprintdBus)]
            text += "\nservice: \(service.version); fprintd's D-Bus API: \(service.fprintdBus)"
        }
        options.console.success(text, fields)
    }

    /// What `GET /v1/service` says of the service itself that a user checking a desktop needs:
    /// whether fprintd's clients reach it (`serving`, `off`, or why not).
    private struct ServiceSummary: Decodable, Sendable {
        var version: String
        var fprintdBus: String
    }

    private static func fields(_ report: StatusReport) -> [String: JSONValue] {
        let status = report.biometry
        return [
            "mode": .string(report.mode),
            "reader": report.reader.map { reader in
                ["driver": .string(reader.identity.driver), "deviceId": .string(reader.identity.deviceID),
                 "name": .string(reader.name), "temperature": .string(reader.temperature.rawValue),
                 "identification": json(reader.identification)]
            } ?? .null,
            "user": .string(report.user),
            "stateDirectory": .string(report.stateDirectory),
            "biometry": json(status, extra: ["lockoutThreshold": .int(report.lockoutThreshold)]),
            // iOS's rules: which asks for the password now (it ends only when the password or
            // passcode is given), or in how many seconds a timed one will.
            "password": [
                "rule": status.passwordRule.map { .string($0.rawValue) } ?? .null,
                "endsWith": status.passwordRule == nil ? .null : "password or passcode",
                "neededInSeconds": status.passwordNeededIn.map { JSONValue.double($0.rounded(.down)) } ?? .null,
            ],
            "passcode": [
                "set": .bool(report.passcode == "set"),
                "damaged": .bool(report.passcode.hasPrefix("damaged")),
                "refused": .bool(status.damagedCounter != nil || status.unusableLock != nil),
                "failures": status.passcodeFailures.map(JSONValue.int) ?? .null,
                "attemptsBeforeLockout": .int(report.passcodeAttemptsBeforeLockout),
                "lockedOut": .bool(status.passcodeRetryAfter != nil || status.unusableLock != nil),
                "retryAfter": status.passcodeRetryAfter.map(JSONValue.double) ?? .null,
            ],
            "enrollmentStateHash": .optional(report.enrollmentStateHash),
            "damagedPrints": .array(report.damagedPrints.map(JSONValue.string)),
        ]
    }

    private static func text(_ report: StatusReport) -> String {
        let status = report.biometry
        var text = "user: \(report.user)\nmode: \(report.mode)"
        text += report.mode == "in-process" ? " (development: the engine and the state are in your own process and files)" : ""
        text += "\nbiometry: " + Self.text(status, threshold: report.lockoutThreshold)
        if let rule = status.passwordRule {
            text += "\npassword: needed before the next finger (rule: \(rule.rawValue)); this ends when the password or passcode is given"
        } else if let left = status.passwordNeededIn {
            let minutes = Int(left / 60)
            text += "\npassword: not needed now; a timed rule asks for it in \(minutes / 60) h \(minutes % 60) min"
        }
        text += "\npasscode: \(report.passcode)"
        if let failures = status.passcodeFailures { text += ", \(failures) wrong in a row" }
        if status.damagedCounter != nil { text += ", REFUSED until the counter is repaired" }
        if status.unusableLock != nil { text += ", REFUSED until the lock file is repaired" }
        if let retryAfter = status.passcodeRetryAfter { text += ", locked for \(Int(retryAfter)) more seconds" }
        text += "\nenrollment state hash: \(report.enrollmentStateHash ?? (report.damagedPrints.isEmpty ? "none (no prints)" : "unknown (damaged prints)"))"
        for damaged in report.damagedPrints { text += "\ndamaged print: \(damaged)" }
        if let reader = report.reader {
            text += "\nreader: \(reader.identity) \(reader.name), \(reader.temperature.rawValue)"
                + (reader.temperature == .hot ? " (resting: it scans again after about \(Int(ReaderTemperature.coolingTime)) s idle)" : "")
            text += "\nidentification on this reader: " + Self.text(reader.identification, threshold: nil)
        }
        return text
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
        if let path = status.unusableLock { fields["unusableLock"] = .string(path) }
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
