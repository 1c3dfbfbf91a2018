import FPLocalAPI
import FPAuthentication
import FoundationEssentials
import Glibc

/// Where command output goes: results on stdout (one JSON object with
/// `--json`), progress and prompts on stderr, so that scripts can parse stdout.
struct Console: Sendable {
    let json: Bool
    /// `--verbose`: progress lines say a little more.
    var verbose = false

    /// Progress and hints for the person at the terminal.
    func note(_ text: String) {
        StandardError.write(text + "\n")
    }

    /// A command's result: the text for people, or the JSON object with `"ok": true`.
    func success(_ text: @autoclosure () -> String, _ fields: [String: JSONValue]) {
        if json {
            print(Envelope.success(fields).rendered)
        } else {
            let line = text()
            if !line.isEmpty { print(line) }
        }
        fflush(nil)
    }

    /// Reports a failure and returns the process exit status for it.
    func failure(_ error: AuthError, _ fields: [String: JSONValue] = [:]) -> Int32 {
        if json {
            print(Envelope.failure(error, hint: error.code.hint(error), fields).rendered)
            fflush(nil)
        }
        var text = "fpbridge: \(error.message) [\(error.code.name) \(error.code.rawValue)]"
        if let retryAfter = error.retryAfter { text += " (retry after \(Int(retryAfter.rounded(.up))) s)" }
        note(text)
        if let hint = error.code.hint(error) { note("hint: " + hint) }
        return error.code.exitStatus
    }
}
