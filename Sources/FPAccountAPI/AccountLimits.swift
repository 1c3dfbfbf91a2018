import Foundation

/// The shapes the server accepts, in one place for the server and its clients.
public enum AccountLimits {
    /// Request bodies over this are refused (413).
    public static let maximumBodyBytes = 16 * 1024
    /// Password length in UTF-8 bytes.
    public static let passwordBytes = 8...1024
    /// Device name length in characters.
    public static let deviceNameLength = 1...100
    /// Payee length in characters.
    public static let payeeLength = 1...140

    /// Whether `name` is a user name: 1 to 64 of letters, digits, `.`, `_`, `-`, `@`.
    public static func isUsername(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-@".contains($0)) }
    }

    /// Whether `name` can be a local user of a device's machine, as an attestation names it:
    /// 1 to 64 UTF-8 bytes, none of them a control character, a space or a `/` (Linux user
    /// names are far narrower; this only keeps what the server stores and shows printable).
    public static func isLocalUser(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.unicodeScalars.allSatisfy {
            !$0.properties.isWhitespace && $0.properties.generalCategory != .control && $0 != "/"
                && $0.properties.generalCategory != .format && $0.properties.generalCategory != .unassigned
        }
    }

    /// The canonical text of an amount (`12.5` → `12.50`), nil when it is not a positive amount
    /// with at most two decimals and twelve digits before the dot.
    public static func canonicalAmount(_ text: String) -> String? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, (1...12).contains(whole.count),
              whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var cents = "00"
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...2).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            cents = fraction.count == 1 ? fraction + "0" : String(fraction)
        }
        let digits = String(whole.drop { $0 == "0" })
        let canonical = (digits.isEmpty ? "0" : digits) + "." + cents
        return canonical == "0.00" ? nil : canonical
    }

    /// Whether `code` is three capital ASCII letters.
    public static func isCurrency(_ code: String) -> Bool {
        code.count == 3 && code.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    /// Whether `code` is a pairing code: six ASCII digits.
    public static func isPairingCode(_ code: String) -> Bool {
        code.utf8.count == 6 && code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
