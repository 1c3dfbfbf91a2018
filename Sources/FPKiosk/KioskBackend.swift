import FPLocalAPI
import FPVocabulary

/// What the kiosk asks of fpbridged. The service's socket in production (``ServiceBackend``);
/// a simulated reader in the loop's tests.
package protocol KioskBackend: Sendable {
    /// `GET /v1/reader`: presence and heat.
    func reader() async throws -> ReaderReport.Reader
    /// `identify` with `timeoutSeconds`, not waiting for a busy reader; `event` gets the stream's events.
    func identify(timeoutSeconds: Double, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> String
    /// `POST /v1/passcode-check`: the user's name when the PIN is right; throws the service's error.
    func checkPasscode(user: String, passcode: String) async throws -> String
}
