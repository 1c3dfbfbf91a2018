import FPCore
import FoundationEssentials

/// The auth lines of a PAM stack file (Debian's `/etc/pam.d/common-auth`), read to see whether
/// a successful password reaches `pam_fpbridge.so password-proved`, the line that lifts
/// fpbridge's lockout (docs/packaging.md). A line before it that ends the stack on success
/// (`sufficient`, `[success=done]`, or a jump past it) means a correct password no longer
/// lifts the lockout, and nothing says so: pam_faillock's own manual page puts
/// `auth sufficient pam_faillock.so authsucc` there (issue 51).
struct PamStack: Sendable {
    /// One `auth` line: its number in the file, the control and the module with its arguments.
    struct Line: Sendable {
        let number: Int
        let control: String
        let module: String
        let arguments: [String]
        let text: String
    }

    let lines: [Line]

    /// Parses `text`: comments, blank lines and other facilities' lines are left out; a
    /// bracketed control (`[success=1 default=ignore]`) is one field.
    init(_ text: String) {
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            var fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.first == "auth" || fields.first == "-auth", fields.count >= 3 else { continue }
            fields.removeFirst()
            var control = fields.removeFirst()
            if control.hasPrefix("[") {
                while !control.hasSuffix("]"), !fields.isEmpty { control += " " + fields.removeFirst() }
            }
            guard let module = fields.first else { continue }
            lines.append(Line(number: index + 1, control: control, module: module, arguments: Array(fields.dropFirst()),
                              text: String(raw).trimmed))
        }
        self.lines = lines
    }

    /// The lockout's recovery line, if the stack has it.
    var passwordProved: Line? {
        lines.first { $0.module.hasSuffix("pam_fpbridge.so") && $0.arguments.contains("password-proved") }
    }

    /// Whether the stack asks the finger through fpbridge's face or module.
    var asksFinger: Bool {
        lines.contains { $0.module.hasSuffix("pam_fpbridge.so") && !$0.arguments.contains("password-proved") }
            || lines.contains { $0.module.hasSuffix("pam_fprintd.so") }
    }

    /// The lines before the recovery line whose success ends the stack or jumps past it.
    var linesThatSkipTheRecovery: [Line] {
        guard let target = passwordProved, let end = lines.firstIndex(where: { $0.number == target.number }) else { return [] }
        return lines[..<end].enumerated().filter { offset, line in
            let success = Self.successAction(line.control)
            if success == "done" { return true }
            if let jump = Int(success ?? ""), offset + jump >= end { return true }
            return false
        }.map(\.element)
    }

    /// What a module's success does under `control`: "done" (the stack ends), a jump count,
    /// or nil (the stack goes on).
    static func successAction(_ control: String) -> String? {
        switch control {
        case "sufficient": return "done"
        case "required", "requisite", "optional", "include", "substack": return nil
        default:
            guard control.hasPrefix("[") else { return nil }
            let pairs = control.dropFirst().dropLast().split(separator: " ")
            for pair in pairs {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, parts[0] == "success" { return parts[1] == "done" ? "done" : (Int(parts[1]) != nil ? parts[1] : nil) }
            }
            return nil
        }
    }
}
