import FPAccountServer
import FPKeyFormats
import Testing

/// Tokens the server makes are pasted into command lines (`--token`).
@Suite struct RandomTokenTests {
    /// Before, one token in 64 began with `-` and `fpbridge account pay --token <it>` failed
    /// with "Missing value for '--token'" (seen in a test run).
    @Test func noTokenStartsWithADash() {
        let tokens = (0..<4000).map { _ in RandomTokens.make() }
        #expect(tokens.allSatisfy { !$0.hasPrefix("-") })
        #expect(tokens.allSatisfy { KeyIdentifiers.bytes(base64URL: $0)?.count == 32 })
        #expect(Set(tokens).count == tokens.count)
        // Still random in the first character: all 63 other base64url characters come up.
        #expect(Set(tokens.map(\.first)).count == 63)
    }
}
