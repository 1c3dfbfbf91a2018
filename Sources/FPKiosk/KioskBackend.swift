import FPLocalAPI
import FPVocabulary

/// What the kiosk asks of fpbridged. The service's socket in production (``ServiceBackend``);
/// a simulated reader in the loop's tests.
package protocol KioskBackend: Sendable {
    /// `GET /v1/reader`: presence and heat.
    func reader() async throws -> ReaderReport.Reader
    /// `identify` with `timeoutSeconds`, not waiting for a busy reader; `event` gets the stream's
    /// events. With a login server, the user's session there too. `claimedUser`: the person
    /// named themselves (badge and finger), and only their prints are compared.
    func identify(timeoutSeconds: Double, claimedUser: String?, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> Identified
    /// `POST /v1/passcode-check`: the user when the PIN is right, with a login server their
    /// session there too; throws the service's error. `unmapped`: what was typed names no
    /// account (an unknown badge), answered and counted by fpbridged as a wrong PIN.
    func checkPasscode(user: String, passcode: String, unmapped: Bool) async throws -> Identified
}

/// Who was at the reader (or at the PIN pad), and their session at the login server when the kiosk has one.
package struct Identified: Sendable, Equatable {
    package var user: String
    /// The login server's session token (`--server`); nil without a server.
    package var session: String?

    package init(user: String, session: String? = nil) {
        self.user = user
        self.session = session
    }
}
