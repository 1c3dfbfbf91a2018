import AsyncHTTPClient
import FPAccountAPI
import Foundation
import NIOCore

/// fpbridge-server's kiosk login (`--server URL`): a fresh challenge for each armed scan, and
/// the identified user's proof exchanged for a session. Spoken here over HTTP with the API's
/// own types, not through FingerprintLogin, which would link the engine and libfprint into a
/// program that only talks to fpbridged.
package struct LoginServer: Sendable {
    package let base: URL
    /// What the server's challenges name and the proof is bound to: scheme, host and port.
    package let origin: String

    /// Refuses a URL that is not http(s)://host[:port][/path].
    package init(url text: String) throws(LoginServerError) {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw LoginServerError("--server \(text): expected http(s)://HOST[:PORT]")
        }
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        base = url
        origin = components.string ?? text
    }

    /// A challenge for this server's origin (single use, about two minutes): a finger's, or with
    /// `pin` a PIN's (`kiosk-pin-login`), which only the PIN pad's proof answers.
    package func challenge(pin: Bool = false) async throws -> KioskChallenge {
        try await post("v1/kiosk/challenges", KioskChallengeRequest(origin: origin, purpose: pin ? "kiosk-pin-login" : nil))
    }

    /// The proof exchanged for the user's session: `kiosk` for a finger's, `kiosk-pin` for a PIN's.
    package func logIn(_ request: KioskLoginRequest, pin: Bool = false) async throws -> SessionToken {
        try await post(pin ? "v1/kiosk/pin-logins" : "v1/kiosk/logins", request)
    }

    private func post<T: Decodable>(_ path: String, _ body: some Encodable) async throws -> T {
        var request = HTTPClientRequest(url: base.appendingPathComponent(path).absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        let response: HTTPClientResponse
        do { response = try await HTTPClient.shared.execute(request, timeout: .seconds(15)) } catch {
            throw LoginServerError("the login server at \(origin) did not answer: \(error)")
        }
        let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
        guard (200..<300).contains(response.status.code) else {
            let refusal = try? JSONDecoder().decode(AccountFailureBody.self, from: data)
            throw LoginServerError(refusal.map { "the login server refused: \($0.error.message)" }
                                   ?? "the login server answered \(response.status.code)")
        }
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw LoginServerError("the login server sent an answer this kiosk cannot read")
        }
    }
}

/// The login server failed or refused, in words.
package struct LoginServerError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
