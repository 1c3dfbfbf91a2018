import Foundation
@testable import FPKiosk
import Testing

/// The page's two string tables (KioskStrings) against each other and against what the kiosk
/// sends: a key missing from one language would show English or the bare key to a walk-up user.
@Suite struct KioskStringsTests {
    /// The keys of one built-in language's table.
    private func keys(_ language: String) throws -> Set<String> {
        Set(try #require(KioskStrings.builtIn.first { $0.language == language }, "no \(language) table").strings.keys)
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
