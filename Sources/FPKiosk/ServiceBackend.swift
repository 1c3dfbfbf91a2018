import FPAccountAPI
import FPServiceClient
import FPVocabulary

/// The kiosk's way to fpbridged: its socket, as a member of the kiosk group (the service
/// decides what the kiosk may do from the socket's peer credentials, never from the request).
package struct ServiceBackend: KioskBackend {
    package let client: ServiceClient
    /// With a login server each scan is identify-and-prove, and a match is a session there.
    package let server: LoginServer?

    package init(socket: String, server: LoginServer? = nil) {
        self.server = server
        var client = ServiceClient(socketPath: socket)
        // An answer to a read request comes at once or the service is in trouble: the page
        // should say so within seconds, not after the client's default half minute.
        client.answerDeadline = .seconds(10)
        self.client = client
    }

    package func reader() async throws -> ReaderReport.Reader {
        let answer: ReaderReport = try await client.get("reader")
        return answer.reader
    }

    package func identify(timeoutSeconds: Double, claimedUser: String?, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> Identified {
        var request = EvaluationRequest(operation: .identify)
        request.timeoutSeconds = timeoutSeconds
        request.claimedUser = claimedUser
        var challenge: KioskChallenge?
        if let server {
            // A fresh challenge for every armed scan: one lives about two minutes and is spent by a login.
            let fresh = try await server.challenge()
            challenge = fresh
            request.operation = .identifyAndProve
            request.proof = ProofRequestWire(purpose: fresh.purpose, origin: fresh.origin, challenge: fresh.challenge)
            request.timeoutSeconds = min(timeoutSeconds, Self.longestProvedScan)
        }
        // Someone else's operation on the reader: the kiosk waits its turn itself (re-reading
        // the heat first) instead of queueing blind.
        request.wait = false
        // One touch, one answer: the page says "not recognised" after each stranger's touch,
        // not after three of them.
        request.attempts = 1
        request.reason = "Touch the reader"
        let value = try await client.stream("evaluations", request, handler: EventRelay(relay: event))
        let result: EvaluationResult
        do { result = try value.decode(as: EvaluationResult.self) } catch {
            throw AuthError(.readerFailure, "fpbridged sent an identification this kiosk cannot read", cause: .serviceAnswer)
        }
        guard let server, let challenge else { return Identified(user: result.user) }
        guard let proof = result.proof else {
            throw AuthError(.readerFailure, "fpbridged identified \(result.user) but sent no proof for the login server", cause: .serviceAnswer)
        }
        return try await server.session(challenge, proof)
    }

    /// Scans with a challenge end before it does (it lives 120 s), with time to log in after.
    static let longestProvedScan: Double = 90

    package func checkPasscode(user: String, passcode: String, unmapped: Bool) async throws -> Identified {
        var request = PasscodeCheckRequest(user: user, passcode: passcode, unmapped: unmapped ? true : nil)
        var challenge: KioskChallenge?
        if let server {
            // As for a finger: a fresh challenge, a PIN's, signed by fpbridged only when the PIN is right.
            let fresh = try await server.challenge(pin: true)
            challenge = fresh
            request.proof = ProofRequestWire(purpose: fresh.purpose, origin: fresh.origin, challenge: fresh.challenge)
        }
        let answer: PasscodeCheckAnswer = try await client.post("passcode-check", request)
        guard let server, let challenge else { return Identified(user: answer.user) }
        guard let proof = answer.proof else {
            throw AuthError(.readerFailure, "fpbridged accepted \(answer.user)'s PIN but sent no proof for the login server", cause: .serviceAnswer)
        }
        return try await server.session(challenge, proof, pin: true)
    }

    private struct EventRelay: StreamHandler {
        let relay: @Sendable (AuthEvent) -> Void
        func event(_ event: AuthEvent) { relay(event) }
        func enrollment(_ progress: EnrollmentProgress) {}
        // identify never asks for a passcode; nil would cancel if it did.
        func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? { nil }
    }
}

extension LoginServer {
    /// fpbridged's proof over `challenge` exchanged for the user's session (a PIN's with `pin`).
    func session(_ challenge: KioskChallenge, _ proof: WireProof, pin: Bool = false) async throws -> Identified {
        let session = try await logIn(KioskLoginRequest(
            challengeId: challenge.challengeId, credentialId: proof.credentialId, counter: proof.counter,
            signature: proof.signatureBase64, attestationStatement: proof.attestation.statementBase64,
            attestationSignature: proof.attestation.signatureBase64), pin: pin)
        return Identified(user: session.username, session: session.token)
    }
}

/// `POST /v1/passcode-check`'s body. Encoded straight into the request: the PIN is never
/// kept, logged or echoed by the kiosk.
struct PasscodeCheckRequest: Encodable, Sendable {
    var user: String
    var passcode: String
    /// A login server's PIN challenge, for fpbridged to sign when the PIN is right.
    var proof: ProofRequestWire?
    /// No account for what was typed: fpbridged answers and counts it as a wrong PIN.
    var unmapped: Bool?
}

/// Its answer when the PIN is right.
struct PasscodeCheckAnswer: Decodable, Sendable {
    var ok: Bool
    var user: String
    /// With a `proof` request: the user's login key's signature over the kiosk PIN payload.
    var proof: WireProof?
}
