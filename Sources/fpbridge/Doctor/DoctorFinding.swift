import FPLocalAPI
/// One thing `fpbridge doctor` found, in plain words, with the fix when there is one.
struct DoctorFinding: Sendable {
    enum Level: String, Sendable {
        /// Working as it should.
        case ok
        /// Worth knowing; nothing is broken because of it now.
        case note
        /// A reader cannot work until this is fixed.
        case problem
    }

    let level: Level
    let topic: String
    let message: String
    var fix: String?

    var json: JSONValue {
        var object: [String: JSONValue] = ["level": .string(level.rawValue), "topic": .string(topic), "message": .string(message)]
        if let fix { object["fix"] = .string(fix) }
        return .object(object)
    }

    var text: String {
        let mark = switch level {
        case .ok: "ok     "
        case .note: "note   "
        case .problem: "PROBLEM"
        }
        return "\(mark) \(topic): \(message)" + (fix.map { "\n        fix: \($0)" } ?? "")
    }
}
