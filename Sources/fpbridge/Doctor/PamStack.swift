import FPCore
import FoundationEssentials

/// The auth lines of a PAM stack file (Debian's `/etc/pam.d/common-auth`), read to see whether
/// a successful password reaches `pam_fpbridge.so password-proved`, the line that lifts
/// fpbridge's lockout (docs/packaging.md). A line before it that ends the stack on success
/// (`sufficient`, `[success=done]`, or a jump past it) means a correct password no longer
/// lifts the lockout, and nothing says so: pam_faillock's own manual page puts
/// `auth sufficient pam_faillock.so authsucc` there (issue 51).
struct PamStack: Sendable {
    /// One `auth` line: where it is, the control and the module with its arguments.
    struct Line: Sendable {
        /// The file it is in (another than the one checked when it came through `@include`).
        let source: String
        let number: Int
        let control: String
        let module: String
        let arguments: [String]
        let text: String

        /// The lockout's recovery: the module's own line, or `pam_exec` running
        /// `fpbridge pam-password-proved` (docs/desktop.md, without the package).
        var isRecovery: Bool {
            (module.hasSuffix("pam_fpbridge.so") && arguments.contains("password-proved"))
                || (module.hasSuffix("pam_exec.so") && arguments.contains("pam-password-proved"))
        }

        /// A finger's line: its success skipping the recovery is right (a finger is no password).
        var isFinger: Bool {
            (module.hasSuffix("pam_fpbridge.so") && !arguments.contains("password-proved")) || module.hasSuffix("pam_fprintd.so")
        }
    }

    let lines: [Line]

    /// Parses `text`, read from `path`: comments, blank lines and other facilities' lines are
    /// left out; a bracketed control (`[success=1 default=ignore]`) is one field; `@include NAME`
    /// and `auth include NAME` put NAME's lines (from the same folder) in their place, as PAM does.
    init(_ text: String, path: String) {
        self.lines = Self.parse(text, path: path, depth: 0)
    }

    private static func parse(_ text: String, path: String, depth: Int) -> [Line] {
        var lines: [Line] = []
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        func included(_ name: String) -> [Line] {
            // Four levels is more than any distribution's stack; a loop stops there.
            guard depth < 4 else { return [] }
            let file = name.hasPrefix("/") ? name : folder + "/" + name
            guard let data = FileManager.default.contents(atPath: file) else { return [] }
            return parse(String(decoding: data, as: UTF8.self), path: file, depth: depth + 1)
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            var fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if fields.first == "@include", fields.count >= 2 {
                lines += included(fields[1])
                continue
            }
            guard fields.first?.lowercased() == "auth" || fields.first?.lowercased() == "-auth", fields.count >= 3 else { continue }
            fields.removeFirst()
            var control = fields.removeFirst()
            if control.hasPrefix("[") {
                while !control.hasSuffix("]"), !fields.isEmpty { control += " " + fields.removeFirst() }
            }
            control = control.lowercased()
            guard let module = fields.first else { continue }
            if control == "include" {
                lines += included(module)
                continue
            }
            lines.append(Line(source: path, number: index + 1, control: control, module: module,
                              arguments: Array(fields.dropFirst()), text: String(raw).trimmed))
        }
        return lines
    }

    /// The lockout's recovery line, if the stack has it.
    var passwordProved: Line? {
        lines.first(where: \.isRecovery)
    }

    /// Whether the stack asks the finger through fpbridge's face or module.
    var asksFinger: Bool {
        lines.contains(where: \.isFinger)
    }

    /// The lines before the recovery line whose success ends the stack or jumps past it; a
    /// finger's line is left out (its success must skip the recovery).
    var linesThatSkipTheRecovery: [Line] {
        guard let end = lines.firstIndex(where: \.isRecovery) else { return [] }
        return lines[..<end].enumerated().filter { offset, line in
            guard !line.isFinger else { return false }
            let success = Self.successAction(line.control)
            if success == "done" { return true }
            if let jump = Int(success ?? ""), offset + jump >= end { return true }
            return false
        }.map(\.element)
    }

    /// What a module's success does under `control` (lower case): "done" (the stack ends), a
    /// jump count, or nil (the stack goes on). A bracket without `success=` takes its `default=`,
    /// as PAM does.
    static func successAction(_ control: String) -> String? {
        switch control {
        case "sufficient": return "done"
        case "required", "requisite", "optional", "include", "substack": return nil
        default:
            guard control.hasPrefix("[") else { return nil }
            var values: [String: String] = [:]
            for pair in control.dropFirst().dropLast().split(separator: " ") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { values[parts[0]] = parts[1] }
            }
            guard let action = values["success"] ?? values["default"] else { return nil }
            return action == "done" ? "done" : (Int(action) != nil ? action : nil)
        }
    }
}
