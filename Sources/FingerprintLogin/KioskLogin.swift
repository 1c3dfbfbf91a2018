import FPAccountAPI
import FPVocabulary
import FPLocalAPI
import FPServiceClient
import Foundation

/// A kiosk's login against `fpbridge-server`: walk up, touch, logged in. The kiosk asks the
/// server for a challenge that names no user, fpbridged identifies whoever touches the reader
/// and signs the challenge with that user's key for this server in the same touch
/// (`identify-and-prove`, for members of the kiosk group), and the server checks the proof as
/// a device login and opens a session for the user it belongs to.
///
/// ```swift
/// let kiosk = KioskLogin(server: URL(string: "https://bank.example")!)
/// let challenge = try await kiosk.challenge()        // a new one for each armed wait (it expires)
/// let proof = try await kiosk.identifyAndProve(challenge)   // package: with events and a cancel button too
/// let session = try await kiosk.logIn(proof.request)  // SessionToken, kind "kiosk"
/// ```
///
/// Each user's key is the one ``FingerprintLogin/bind(username:password:deviceName:deviceId:bindingCode:requestApproval:)``
/// made on this machine's fpbridged for the account of the same name as their local user.
public struct KioskLogin: Sendable {
    /// The server's base URL.
    public let server: URL
    /// fpbridged's socket.
    public let socket: String
    let http: AccountHTTP

    /// A kiosk of `server` on the fpbridged at `service`; `trustedCertificates` is a PEM file of CAs to trust instead of the system's.
    public init(server: URL, service socket: String = "/run/fpbridge/fpbridged.sock", trustedCertificates: String? = nil) {
        self.server = server
        self.socket = socket
        http = AccountHTTP(server: server, trustedCertificates: trustedCertificates)
    }

    /// The origin the proofs name, as ``FingerprintLogin/origin``.
    public var origin: String { FingerprintLogin.origin(of: server) }

    /// A new kiosk challenge (single use; it expires after the server's challenge lifetime, 120 s by default).
    public func challenge() async throws(FingerprintLoginError) -> KioskChallenge {
        try await http.send(.POST, "/v1/kiosk/challenges", body: KioskChallengeRequest(origin: origin), as: KioskChallenge.self)
    }

    /// Identifies who touches the reader and has their key sign `challenge`, in one touch.
    /// - Throws: ``FingerprintLoginError/device(_:)`` with every failure of identification
    ///   (`authenticationFailed`, `biometryLockout`, `timedOut`, `userCancel`, `readerBusy` …),
    ///   `notFound` (the identified user has no key for this server) or `keyInvalidated`.
    public func identifyAndProve(_ challenge: KioskChallenge, reason: String? = nil,
                                 timeoutSeconds: Double? = nil, wait: Bool = true) async throws(FingerprintLoginError) -> KioskProof {
        try await identifyAndProve(challenge, reason: reason, timeoutSeconds: timeoutSeconds, wait: wait,
                                   controls: OperationControls(), handler: QuietStreamHandler())
    }

    /// ``identifyAndProve(_:reason:timeoutSeconds:wait:)`` with the stream's events handed to
    /// `handler` (finger detected, no match, lockout …) and `controls` to cancel it.
    package func identifyAndProve(_ challenge: KioskChallenge, reason: String? = nil, timeoutSeconds: Double? = nil, wait: Bool = true,
                                  controls: OperationControls, handler: some StreamHandler) async throws(FingerprintLoginError) -> KioskProof {
        var request = EvaluationRequest(operation: .identifyAndProve)
        request.proof = ProofRequestWire(purpose: challenge.purpose, origin: challenge.origin, challenge: challenge.challenge)
        request.reason = reason
        request.timeoutSeconds = timeoutSeconds
        request.wait = wait
        let result: EvaluationResult
        do {
            let value = try await ServiceClient.with(socket: socket) { client in
                try await client.stream("evaluations", request, controls: controls, handler: handler)
            }
            result = try value.decode(as: EvaluationResult.self)
        } catch let error as AuthError {
            throw .device(error)
        } catch {
            throw .device(AuthError(.readerFailure, "\(error)"))
        }
        guard let proof = result.proof else { throw .transport("fpbridged identified \(result.user) but sent no proof") }
        return try KioskProof(user: result.user, finger: result.finger, answering: challenge, with: proof)
    }

    /// Sends a proof: the server checks it and opens a session (kind `kiosk`) for the key's user.
    public func logIn(_ proof: KioskLoginRequest) async throws(FingerprintLoginError) -> SessionToken {
        try await http.send(.POST, "/v1/kiosk/logins", body: proof, as: SessionToken.self)
    }

    /// The whole kiosk login: a challenge, one touch, a session.
    package func identifyAndLogIn(reason: String? = nil, timeoutSeconds: Double? = nil, wait: Bool = true,
                                  controls: OperationControls = OperationControls(),
                                  handler: some StreamHandler) async throws(FingerprintLoginError) -> KioskLoginResult {
        let challenge = try await challenge()
        let proof = try await identifyAndProve(challenge, reason: reason, timeoutSeconds: timeoutSeconds, wait: wait,
                                               controls: controls, handler: handler)
        return KioskLoginResult(user: proof.user, finger: proof.finger, session: try await logIn(proof.request))
    }
}

/// Who fpbridged identified, and their key's answer to a kiosk challenge, ready to send.
public struct KioskProof: Sendable, Hashable {
    /// The local user identified.
    public let user: String
    /// The finger that matched.
    public let finger: Finger?
    /// The body of `POST /v1/kiosk/logins` (or, for a PIN's, `POST /v1/kiosk/pin-logins`).
    public let request: KioskLoginRequest

    /// fpbridged's `proof` as the body for the server, once it is seen to answer `challenge`
    /// and nothing else.
    init(user: String, finger: Finger?, answering challenge: KioskChallenge, with proof: WireProof) throws(FingerprintLoginError) {
        guard proof.origin == challenge.origin, proof.challenge == challenge.challenge, proof.purpose == challenge.purpose else {
            throw .transport("fpbridged signed another challenge than the one it was given")
        }
        self.user = user
        self.finger = finger
        request = KioskLoginRequest(challengeId: challenge.challengeId, credentialId: proof.credentialId,
                                    counter: proof.counter, signature: proof.signatureBase64,
                                    attestationStatement: proof.attestation.statementBase64,
                                    attestationSignature: proof.attestation.signatureBase64)
    }
}

/// A kiosk login done: who, which finger, and the server's session.
public struct KioskLoginResult: Sendable, Hashable {
    /// The local user identified.
    public let user: String
    /// The finger that matched.
    public let finger: Finger?
    /// The server's session for the key's account.
    public let session: SessionToken
}
