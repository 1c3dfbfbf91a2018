import FPCore
/// Turns driver and device ids into safe single path components, and checks user names.
package enum PathComponent {
    private static let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)

    /// Percent-encodes everything but letters, digits, `.`, `_` and `-` (and a leading `.`).
    static func encode(_ text: String) -> String {
        var result = ""
        for (index, byte) in text.utf8.enumerated() {
            if safe.contains(byte) && !(index == 0 && byte == UInt8(ascii: ".")) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result.isEmpty ? "%" : result
    }

    package static func validateUser(_ name: String) throws(StoreError) {
        guard isSafeName(name) else { throw .invalidUserName(name) }
    }

    /// Key labels name files too (`keys/USER/LABEL.json`): the same rule as user names.
    package static func validateLabel(_ label: String) throws(StoreError) {
        guard isSafeName(label) else { throw .invalidKeyLabel(label) }
    }

    private static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && !name.hasPrefix(".") && name.utf8.allSatisfy { safe.contains($0) }
    }
}
