import FPLocalAPI
import FPAuthentication
import FoundationEssentials
import Glibc

/// Where command output goes: results on stdout (one JSON object with
/// `--json`), progress and prompts on stderr, so that scripts can parse stdout.
struct Console: Sendable {
    let json: Bool

    /// Progress and hints for the person at the terminal.
    func note(_ text: String) {
        StandardError.write(text + "\n")
    }

    /// A command's result: the text for people, or the JSON object with `"ok": true`.
    func success(_ text: @autoclosure () -> String, _ fields: [String: JSONValue]) {
        if json {
            var object = fields
            object["ok"] = true
            print(JSONValue.object(object).rendered)
        } else {
            let line = text()
            if !line.isEmpty { print(line) }
        }
        fflush(nil)
    }

    /// Reports a failure and returns the process exit status for it.
    func failure(_ error: AuthError, _ fields: [String: JSONValue] = [:]) -> Int32 {
        if json {
            var detail: [String: JSONValue] = [
                "code": .int(error.code.rawValue), "name": .string(error.code.name), "message": .string(error.message),
            ]
            if let retryAfter = error.retryAfter { detail["retryAfter"] = .double(retryAfter) }
            if let hint = error.code.hint(error) { detail["hint"] = .string(hint) }
            var object = fields
            object["ok"] = false
            object["error"] = .object(detail)
            print(JSONValue.object(object).rendered)
            fflush(nil)
        }
        var text = "fpbridge: \(error.message) [\(error.code.name) \(error.code.rawValue)]"
        if let retryAfter = error.retryAfter { text += " (retry after \(Int(retryAfter.rounded(.up))) s)" }
        note(text)
        if let hint = error.code.hint(error) { note("hint: " + hint) }
        return error.code.exitStatus
    }
}
