import FPJSON
import FPVocabulary

/// The one JSON shape of an answer, written by the service's routes and the CLI's `--json`
/// alike: the result's own fields beside `"ok": true`, or `"ok": false` beside `"error"`
/// (``WireError``) and any fields that say what the failure was about.
package enum Envelope {
    /// A success: `fields` and `"ok": true`.
    package static func success(_ fields: [String: JSONValue]) -> JSONValue {
        var object = fields
        object["ok"] = true
        return .object(object)
    }

    /// A failure: `fields`, `"ok": false` and the error (with a hint for people, when there is one).
    package static func failure(_ error: AuthError, hint: String? = nil, _ fields: [String: JSONValue] = [:]) -> JSONValue {
        var object = fields
        if case .object(let body)? = try? JSONValue(encoding: FailureBody(error, hint: hint)) {
            object.merge(body) { _, failure in failure }
        }
        return .object(object)
    }
}
