import Foundation

/// Text that reaches a fingerprint prompt (a payee, a device name): what the user reads
/// there must be exactly what is signed, so nothing invisible, reordering or ambiguous in
/// spacing gets in. One rule for the server (which refuses) and the client (which will not
/// sign what it could not show honestly).
public enum PromptText {
    /// The text in NFC when it may be shown and signed; otherwise why not, in words naming `field`.
    ///
    /// Refused: control and format characters (which include the bidirectional overrides and
    /// isolates, zero-width spaces and joiners, the soft hyphen and the byte-order mark), line
    /// and paragraph separators, every space but U+0020 and the blank U+2800, default-ignorable
    /// code points (variation selectors among them), private-use and unassigned code points,
    /// more than four combining marks in a row, a space at either end or two in a row, a word
    /// that mixes Latin, Greek, Cyrillic, Armenian or Cherokee letters; and more than `length`
    /// characters after normalisation. A word wholly in another alphabet that looks like a
    /// Latin one (UTS #39's whole-script confusables) is not caught.
    public static func checked(_ text: String, field: String, length: ClosedRange<Int>) -> Result<String, PromptTextRefusal> {
        // Normalised first: the length and the characters checked are the ones that will be stored and signed.
        let normalized = text.precomposedStringWithCanonicalMapping
        guard length.contains(normalized.count), normalized.utf8.count <= length.upperBound * 4 else {
            return .failure(PromptTextRefusal(field: field, reason: "must be \(length.lowerBound) to \(length.upperBound) characters"))
        }
        var marks = 0
        for scalar in normalized.unicodeScalars {
            if let what = refusedKind(scalar) {
                let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                return .failure(PromptTextRefusal(field: field, reason: "contains \(what) (\(code)), which a prompt cannot show as it is signed"))
            }
            // Stacked marks draw over the characters and lines around them (the amount among them).
            let category = scalar.properties.generalCategory
            marks = category == .nonspacingMark || category == .enclosingMark ? marks + 1 : 0
            if marks > maximumMarks {
                return .failure(PromptTextRefusal(field: field, reason: "stacks more than \(maximumMarks) combining marks on one character, "
                                                  + "which a prompt cannot show without covering the text around it"))
            }
        }
        if normalized.hasPrefix(" ") || normalized.hasSuffix(" ") || normalized.contains("  ") {
            return .failure(PromptTextRefusal(field: field, reason: "has a space at an end or two in a row"))
        }
        if let mixed = mixedScriptWord(normalized) {
            return .failure(PromptTextRefusal(field: field, reason: "mixes \(mixed) letters in one word, which can spell a name "
                                              + "that looks like another (a Cyrillic С in Сoffee)"))
        }
        return .success(normalized)
    }

    /// Whether `text` passes ``checked(_:field:length:)`` unchanged (already in NFC).
    public static func isShowable(_ text: String, length: ClosedRange<Int>) -> Bool {
        (try? checked(text, field: "", length: length).get()).map { $0.utf8.elementsEqual(text.utf8) } ?? false
    }

    /// The alphabets whose letters pass for each other's (UTS #39's classic confusables):
    /// a word that mixes two of them is refused. A word wholly in one of them is fine.
    private static let confusableScripts: [(name: String, ranges: [ClosedRange<UInt32>])] = [
        ("Latin", [0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x250...0x2AF, 0x1E00...0x1EFF, 0xFF21...0xFF5A]),
        ("Greek", [0x370...0x3FF, 0x1F00...0x1FFF]),
        ("Cyrillic", [0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F]),
        ("Armenian", [0x530...0x58F]),
        ("Cherokee", [0x13A0...0x13FF, 0xAB70...0xABBF]),
    ]

    /// "Latin and Cyrillic" for the first word whose letters come from two confusable alphabets; nil when none does.
    private static func mixedScriptWord(_ text: String) -> String? {
        for word in text.split(separator: " ") {
            var seen: [String] = []
            for scalar in word.unicodeScalars where scalar.properties.isAlphabetic {
                guard let script = confusableScripts.first(where: { $0.ranges.contains { $0.contains(scalar.value) } })?.name,
                      !seen.contains(script) else { continue }
                seen.append(script)
                if seen.count == 2 { return "\(seen[0]) and \(seen[1])" }
            }
        }
        return nil
    }

    /// Combining marks one character may carry (pointed Hebrew and Tibetan stacks need up to four).
    static let maximumMarks = 4

    private static func refusedKind(_ scalar: Unicode.Scalar) -> String? {
        let properties = scalar.properties
        if properties.isBidiControl { return "a bidirectional control" }
        // A visible symbol with no ink: it reads as a space where U+0020 is not.
        if scalar == "\u{2800}" { return "a blank character (Braille pattern blank)" }
        switch properties.generalCategory {
        case .control: return "a control character"
        case .format: return "an invisible format character"
        case .lineSeparator, .paragraphSeparator: return "a line or paragraph separator"
        case .spaceSeparator where scalar != " ": return "a space other than U+0020"
        case .privateUse: return "a private-use character"
        case .unassigned, .surrogate: return "an unassigned code point"
        default: break
        }
        if properties.isDefaultIgnorableCodePoint { return "an invisible (default-ignorable) character" }
        return nil
    }
}

/// Why a text may not reach a prompt.
public struct PromptTextRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request field it came in.
    public let field: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "'\(field)' \(reason)" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
