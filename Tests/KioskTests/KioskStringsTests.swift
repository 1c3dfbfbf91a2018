import Foundation
@testable import FPKiosk
import Testing

/// The page's two string tables (KioskScript) against each other and against what the kiosk
/// sends: a key missing from one language would show English or the bare key to a walk-up user.
@Suite struct KioskStringsTests {
    /// The keys of one language's table: `name: '…'` inside its `LANG: { … }` block.
    private func keys(_ language: String) throws -> Set<String> {
        let script = KioskScript.javascript
        let start = try #require(script.range(of: "\(language): {"), "no \(language) table")
        // The block ends at a line holding only its closing brace (a `{user}` inside a string does not).
        let end = try #require(script[start.upperBound...].firstMatch(of: try Regex(#"\n\s*\},?\n"#))?.range)
        let table = script[start.upperBound..<end.lowerBound]
        let pattern = try Regex("([A-Za-z]+): '")
        return Set(table.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) })
    }

    @Test func bothLanguagesHaveEveryKey() throws {
        let english = try keys("en"), chinese = try keys("zh")
        #expect(english.count > 40, "\(english.count) keys read: the pattern no longer reads the table")
        #expect(english.subtracting(chinese).isEmpty, "missing in Chinese: \(english.subtracting(chinese).sorted())")
        #expect(chinese.subtracting(english).isEmpty, "missing in English: \(chinese.subtracting(english).sorted())")
    }

    /// Every message key written in the kiosk's Swift sources (``KioskMessageKeys``) is in the table.
    @Test func everyMessageTheKioskSendsIsInTheTable() throws {
        let sent = try KioskMessageKeys.byFile().values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let table = try keys("en")
        #expect(sent.count > 15, "\(sent.count) keys read from the sources: the scan no longer finds them")
        #expect(sent.subtracting(table).isEmpty, "sent but not in the page's table: \(sent.subtracting(table).sorted())")
    }
}
