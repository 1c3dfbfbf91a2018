import FPAccountAPI
import FPLocalAPI
import FPServiceClient
import FPVocabulary

/// The PIN beside the finger, for a kiosk of your own: the same session as a touch, of kind
/// `kiosk-pin`. fpbridged checks the PIN under the user's passcode limits and the kiosk's PIN
/// budget, and only when it is right signs the server's PIN challenge with that user's key
/// for this server; the server opens a session for the key's user. A kiosk that never had the
/// PIN right holds nothing the server takes, so it cannot make up a PIN login for anyone.
///
/// ```swift
/// let kiosk = KioskLogin(server: URL(string: "https://bank.example")!)
/// let result = try await kiosk.pinLogIn(user: "alice", pin: typedPIN)   // session.kind == "kiosk-pin"
/// ```
///
/// The caller must be in the kiosk group (or root, or the admin group), as for
/// ``identifyAndProve(_:reason:timeoutSeconds:wait:)``.
extension KioskLogin {
    /// A new kiosk PIN challenge (`kiosk-pin-login`): only a proof made after a right PIN answers
    /// it, and only at `POST /v1/kiosk/pin-logins`. Single use; it expires as a finger's does.
    public func pinChallenge() async throws(FingerprintLoginError) -> KioskChallenge {
        try await http.send(.POST, "/v1/kiosk/challenges", body: KioskChallengeRequest(origin: origin, purpose: "kiosk-pin-login"),
                            as: KioskChallenge.self)
    }

    /// Checks `pin` as `user`'s passcode in fpbridged and, when it is right, has `user`'s key
    /// for this server sign `challenge` (from ``pinChallenge()``).
    /// - Throws: ``FingerprintLoginError/device(_:)`` with `authenticationFailed` (a wrong PIN,
    ///   or a user with no passcode: told apart from neither), `passcodeLockout` (the user's own
    ///   limit), `pinPadResting` (the kiosk's wrong PINs paced: its `retryAfter` says
    ///   when), `notFound` (a right PIN, but no key for this server: bind it first),
    ///   `notPermitted` (not the kiosk group); `.transport` if fpbridged signed anything else.
    public func checkPINAndProve(user: String, pin: String, _ challenge: KioskChallenge) async throws(FingerprintLoginError) -> KioskProof {
        var request = PasscodeCheckRequest(user: user, passcode: pin)
        request.proof = ProofRequestWire(purpose: challenge.purpose, origin: challenge.origin, challenge: challenge.challenge)
        let result: PasscodeCheckResult
        do {
            result = try await ServiceClient.with(socket: socket) { client in try await client.post("passcode-check", request) }
        } catch let error as AuthError {
            throw .device(error)
        } catch {
            throw .device(AuthError(.readerFailure, "\(error)"))
        }
        guard let proof = result.proof else { throw .transport("fpbridged accepted \(result.user)'s PIN but sent no proof") }
        return try KioskProof(user: result.user, finger: nil, answering: challenge, with: proof)
    }

    /// Sends a PIN's proof: the server checks it as a finger's and opens a session of kind `kiosk-pin`.
    public func logInWithPIN(_ proof: KioskLoginRequest) async throws(FingerprintLoginError) -> SessionToken {
        try await http.send(.POST, "/v1/kiosk/pin-logins", body: proof, as: SessionToken.self)
    }

    /// The whole PIN login: a PIN challenge, the PIN checked and the challenge signed, a session.
    public func pinLogIn(user: String, pin: String) async throws(FingerprintLoginError) -> KioskLoginResult {
        let proof = try await checkPINAndProve(user: user, pin: pin, try await pinChallenge())
        return KioskLoginResult(user: proof.user, finger: nil, session: try await logInWithPIN(proof.request))
    }
}
