import FPAuthentication
import FPCore

/// Parses `--finger` values, with `any` allowed where the command says so.
enum FingerOption {
    static let help = "Finger: " + Finger.allCases.map(\.rawValue).joined(separator: ", ")

    static func parse(_ text: String) throws(AuthError) -> Finger {
        do { return try Finger.parse(text) } catch { throw AuthError(.invalidInput, error.description) }
    }

    /// nil for `any`.
    static func parseOrAny(_ text: String) throws(AuthError) -> Finger? {
        text.lowercased() == "any" ? nil : try parse(text)
    }
}
