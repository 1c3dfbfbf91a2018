import FPKiosk
import Foundation
import Testing
import TestSupport

/// `--embed-origin`: the one origin that may frame the page and is handed its welcomes' sessions,
/// checked at start: an origin a browser would name exactly so, https or loopback http, nothing else.
@Suite struct EmbedOriginTests {
    @Test func anOriginIsTakenAsABrowserNamesIt() throws {
        let taken = [
            "https://app.example": "https://app.example",
            "HTTPS://App.Example:443/": "https://app.example",
            "https://app.example:8443": "https://app.example:8443",
            "http://127.0.0.1:3000": "http://127.0.0.1:3000",
            "http://localhost": "http://localhost",
            "http://[::1]:3000": "http://[::1]:3000",
        ]
        for (text, origin) in taken {
            #expect(try EmbedOrigin(parsing: text).description == origin, "\(text)")
        }
    }

    @Test func anythingButAnHTTPSOrLoopbackOriginIsRefusedNamingTheFlag() {
        let refused = ["*", "null", "", "app.example", "ftp://app.example", "https://", "https://app.example/app",
                       "https://app.example?next=1", "https://app.example#top", "https://user@app.example",
                       "http://app.example", "http://10.0.0.5:3000", "http://localhost.example", "https://app.example:0"]
        for text in refused {
            #expect(throws: EmbedOriginError.self, "\(text)") { try EmbedOrigin(parsing: text) }
            do { _ = try EmbedOrigin(parsing: text) } catch {
                #expect(error.description.hasPrefix("--embed-origin \(text):"), "\(error)")
            }
        }
    }

    /// The command stops at once, status 2, with the flag named: a bad origin, or one without
    /// the login server whose sessions it is for.
    @Test func theKioskDoesNotStartWithABadOriginOrWithoutAServer() async throws {
        let environment = ProcessInfo.processInfo.environment
        let plain = try await Fpbridge.runCommand([KioskProcess.executable, "--server", "http://127.0.0.1:1", "--embed-origin", "http://app.example"],
                                                  environment: environment, timeout: 20)
        #expect(plain.status == 2 && plain.stderr.contains("--embed-origin http://app.example: plain http"), "\(plain.stderr)")
        let alone = try await Fpbridge.runCommand([KioskProcess.executable, "--embed-origin", "https://app.example"],
                                                  environment: environment, timeout: 20)
        #expect(alone.status == 2 && alone.stderr.contains("--embed-origin") && alone.stderr.contains("needs --server"), "\(alone.stderr)")
    }
}
