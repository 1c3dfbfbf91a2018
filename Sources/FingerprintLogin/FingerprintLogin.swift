import Crypto
import FPAccountAPI
import FPVocabulary
import FPKeyFormats
import Foundation
import NIOHTTP1

/// Fingerprint login and payment against `fpbridge-server`, the seeds' flows:
/// bind the device with the password once, then log in and pay with a finger.
///
/// ```swift
/// let login = FingerprintLogin(server: URL(string: "https://bank.example")!, keyring: ServiceKeyring())
/// _ = try await login.bind(username: "alice", password: password, deviceName: "Desk reader")  // the first device
/// let session = try await login.login(username: "alice")          // a fingerprint match signs the challenge
/// let paid = try await login.pay(username: "alice", amount: "12.50", currency: "EUR",
///                                payee: "Coffee Shop", session: session.token)
/// ```
///
/// Each device key belongs to one user at one server (its label is derived from both),
/// signs only after a fingerprint match, and is invalidated when a finger is enrolled or
/// removed: ``FingerprintLoginError/needsRebinding`` then says to log in with the
/// password and bind again. The password alone binds only an account's first device (or
/// the same device again); another waits for a bound device's approval or takes a
/// binding code from the server's operator (``bind(username:password:deviceName:deviceId:bindingCode:requestApproval:)``).
public struct FingerprintLogin: Sendable {
    /// The server's base URL.
    public let server: URL
    /// Where the device keys live.
    public let keyring: any DeviceKeyring
    private let http: AccountHTTP

    /// A client of `server`; `trustedCertificates` is a PEM file of CAs to trust instead of the system's.
    public init(server: URL, keyring: any DeviceKeyring, trustedCertificates: String? = nil) {
        self.server = server
        self.keyring = keyring
        http = AccountHTTP(server: server, trustedCertificates: trustedCertificates)
    }

    /// The origin the signed assertions name: scheme, host and port of ``server``.
    public var origin: String { Self.origin(of: server) }

    /// The origin of a server URL: its scheme, host and port.
    static func origin(of server: URL) -> String {
        var components = URLComponents()
        components.scheme = server.scheme
        components.host = server.host
        components.port = server.port
        return components.string ?? server.absoluteString
    }

    /// The label of the user's key for this server.
    public func keyLabel(username: String) -> String {
        KeyIdentifiers.loginKeyLabel(origin: origin, username: username)
    }

    /// Creates an account.
    public func register(username: String, password: String) async throws(FingerprintLoginError) {
        let _: Registration = try await http.send(.POST, "/v1/accounts", body: PasswordRequest(username: username, password: password),
                                                   as: Registration.self)
    }

    /// A password session (needed to bind and unbind devices).
    public func passwordLogin(username: String, password: String) async throws(FingerprintLoginError) -> SessionToken {
        try await http.send(.POST, "/v1/sessions", body: PasswordRequest(username: username, password: password), as: SessionToken.self)
    }

    /// Binds this device (seed 002, step 2): logs in with the password, makes a new
    /// fingerprint key (replacing an older one for this user and server) and registers it
    /// with its attestation. `deviceId`: when binding a known device again, the id the
    /// server gave it, so that the server insists on the same identity key.
    ///
    /// The password alone binds only the account's first device (or this device again).
    /// A device whose identity key is in a TPM (``DeviceKey/tpm``) proves it when the server
    /// trusts the TPM's maker, and that vouches for it. Another device needs `bindingCode` (one-time, from the server's operator), or, with
    /// `requestApproval`, waits for a bound device's approval: the result is then
    /// ``BindingResult/waitingForApproval(_:session:)``, whose pairing code the user types
    /// on that device (``approve(username:pairingCode:reason:)``); ``waitForApproval(_:username:session:interval:)``
    /// returns once it did.
    public func bind(username: String, password: String, deviceName: String, deviceId: String? = nil,
                     bindingCode: String? = nil, requestApproval: Bool = true) async throws(FingerprintLoginError) -> BindingResult {
        let session = try await passwordLogin(username: username, password: password)
        let label = keyLabel(username: username)
        let key: DeviceKey
        do {
            try await keyring.deleteKey(label: label)
            key = try await keyring.createKey(label: label)
        } catch { throw Self.device(error) }
        let tpm = await tpmProof(key, session: session.token)
        let request = BindRequest(deviceName: deviceName, publicKey: key.publicKeyPEM, identityKey: key.identityKeyPEM,
                                  attestationStatement: key.attestationStatement.base64EncodedString(),
                                  attestationSignature: key.attestationSignature.base64EncodedString(), deviceId: deviceId,
                                  bindingCode: bindingCode, requestApproval: requestApproval ? true : nil,
                                  tpm: try? tpm.get())
        do {
            let answer = try await http.exchange(.POST, "/v1/devices", body: request, token: session.token)
            if answer.status == 202 {
                return .waitingForApproval(try http.decode(PendingBinding.self, from: answer.data), session: session.token)
            }
            return .bound(try http.decode(BoundDevice.self, from: answer.data))
        } catch {
            // A key the server did not take is no use to anyone.
            try? await keyring.deleteKey(label: label)
            throw Self.noting(tpm, on: error)
        }
    }

    /// The proof that the identity key is in the device's TPM: nil when the key is not in a
    /// TPM; the reason when it is and no proof came of it (the server trusts no TPM maker or
    /// not this one, the TPM would not activate the credential). The binding goes on without
    /// it, needing another voucher, and a refusal then says why the TPM did not vouch.
    private func tpmProof(_ key: DeviceKey, session token: String) async -> Result<TPMProof?, FingerprintLoginError> {
        guard let evidence = key.tpm else { return .success(nil) }
        do {
            let challenge = try await http.send(.POST, "/v1/devices/tpm-credentials", body: TPMCredentialRequest(tpm: evidence),
                                                token: token, as: TPMCredentialChallenge.self)
            let secret = try await keyring.activateTPMCredential(challenge)
            return .success(TPMProof(evidence: evidence, secret: secret, expiresAt: challenge.expiresAt))
        } catch {
            return .failure(Self.device(error))
        }
    }

    /// The binding's refusal with why this device's TPM did not vouch for it, when it tried.
    private static func noting(_ tpm: Result<TPMProof?, FingerprintLoginError>, on error: FingerprintLoginError) -> FingerprintLoginError {
        guard case .failure(let problem) = tpm, case .server(var refusal) = error else { return error }
        refusal.message += "; this device's TPM did not vouch for it: \(problem)"
        return .server(refusal)
    }

    /// Waits until a bound device approves `pending` (polling every `interval`), and returns
    /// this device as bound. When the request expires, this device's new key is deleted.
    public func waitForApproval(_ pending: PendingBinding, username: String, session token: String,
                                interval: Duration = .seconds(1)) async throws(FingerprintLoginError) -> BoundDevice {
        while true {
            let now = try await http.send(.GET, "/v1/devices/pending/\(pending.pendingId)", token: token, as: PendingBinding.self)
            switch now.status {
            case "approved":
                guard let device = now.device else { throw .transport("the server approved the binding but sent no device") }
                return device
            case "pending":
                do { try await Task.sleep(for: interval) } catch { throw .device(AuthError(.userCancel, "stopped waiting for approval")) }
            default:
                try? await keyring.deleteKey(label: keyLabel(username: username))
                throw .server(AccountError(.notFound, "nobody approved this device in time (the request \(now.status)); bind again"))
            }
        }
    }

    /// Approves, from this bound device, the new device of `username` that shows
    /// `pairingCode`: the prompt names it, and the signature covers exactly that request,
    /// name and key. Returns the new device as bound.
    public func approve(username: String, pairingCode: String, reason: String? = nil) async throws(FingerprintLoginError) -> BoundDevice {
        let (own, credentialId) = try await boundKey(username: username)
        let approval = try await http.send(.POST, "/v1/approvals/challenges",
                                           body: ApprovalChallengeRequest(username: username, credentialId: credentialId,
                                                                          pairingCode: pairingCode),
                                           as: ApprovalChallenge.self)
        guard approval.challenge.credentialId == credentialId, approval.pairingCode == pairingCode,
              PromptText.isShowable(approval.name, length: AccountLimits.deviceNameLength) else {
            throw .transport("the server described the device to approve in a way a prompt cannot show as it is signed")
        }
        let whose = try whoseDevice(approval, ownIdentityPEM: own.identityKeyPEM)
        let payload = AssertionPayload.approval(approval.approval, origin: origin, challenge: approval.challenge.challenge,
                                                credentialId: credentialId)
        let signed = try await sign(username: username, payload: payload,
                                    reason: reason ?? "Approve the new device '\(approval.name)'\(whose) (pairing code \(pairingCode)) "
                                        + "for \(username) at \(server.host ?? origin)")
        return try await http.send(.POST, "/v1/approvals", body: assertion(approval.challenge, signed), as: BoundDevice.self)
    }

    /// Whose the device to approve is, for the prompt: its local user, checked against the signed
    /// device id (derived from the identity key and the user), and "of this machine" when it shares
    /// this device's identity key: another person of a shared machine asking to be alice's device
    /// must not pass for alice's new laptop. Empty when the server does not say.
    private func whoseDevice(_ approval: ApprovalChallenge, ownIdentityPEM: String) throws(FingerprintLoginError) -> String {
        guard let user = approval.localUser, let pem = approval.identityKey else { return "" }
        guard AccountLimits.isLocalUser(user), let identity = try? P256.Signing.PublicKey(pemRepresentation: pem),
              KeyIdentifiers.deviceId(identity, localUser: user) == approval.deviceId else {
            throw .transport("the server named a local user for the device to approve that its device id does not match")
        }
        let sameMachine = (try? P256.Signing.PublicKey(pemRepresentation: ownIdentityPEM))?.x963Representation
            == identity.x963Representation
        return sameMachine ? " of local user \(user) on THIS machine" : " of local user \(user)"
    }

    /// Invites, from this bound device, a new device of `username`: a finger signs the
    /// invitation, and the server answers with a one-time binding code that the new device binds
    /// with (``bind(username:password:deviceName:deviceId:bindingCode:requestApproval:)``). Unlike
    /// a pending approval, nobody with only the password can use up or block this way.
    public func invite(username: String, reason: String? = nil) async throws(FingerprintLoginError) -> Invitation {
        let credentialId = try await credentialId(username: username)
        let challenge = try await http.send(.POST, "/v1/invitations/challenges",
                                            body: ChallengeRequest(username: username, credentialId: credentialId), as: Challenge.self)
        let payload = AssertionPayload.invitation(origin: origin, challenge: challenge.challenge, credentialId: credentialId)
        let signed = try await sign(username: username, payload: payload,
                                    reason: reason ?? "Invite a new device for \(username) at \(server.host ?? origin)")
        return try await http.send(.POST, "/v1/invitations", body: assertion(challenge, signed), as: Invitation.self)
    }

    /// The user's bound devices.
    public func devices(session token: String) async throws(FingerprintLoginError) -> [BoundDevice] {
        try await http.send(.GET, "/v1/devices", token: token, as: DeviceList.self).devices
    }

    /// Unbinds a device (a password session); this device's key is deleted when it is this device.
    public func unbind(deviceId: String, username: String, session token: String) async throws(FingerprintLoginError) {
        // The unbound device's credential, read first: this device's key goes only when it is that
        // credential (a machine's identity alone may be another local user's or an older binding's).
        let unbound = try await devices(session: token).first { $0.deviceId == deviceId }?.credentialId
        let _: Unbinding = try await http.send(.DELETE, "/v1/devices/\(deviceId)", token: token, as: Unbinding.self)
        if let unbound, let key = try? await keyring.key(label: keyLabel(username: username)),
           let publicKey = try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM),
           KeyIdentifiers.credentialId(publicKey) == unbound {
            try? await keyring.deleteKey(label: keyLabel(username: username))
        }
    }

    /// Logs in with a finger (seed 002, step 3): a challenge from the server, signed after a
    /// match, becomes a short session.
    public func login(username: String, reason: String? = nil) async throws(FingerprintLoginError) -> SessionToken {
        let credentialId = try await credentialId(username: username)
        let challenge = try await http.send(.POST, "/v1/challenges", body: ChallengeRequest(username: username, credentialId: credentialId),
                                            as: Challenge.self)
        let payload = AssertionPayload.login(origin: origin, challenge: challenge.challenge, credentialId: credentialId)
        let signed = try await sign(username: username, payload: payload,
                                    reason: reason ?? "Log in to \(server.host ?? origin) as \(username)")
        return try await http.send(.POST, "/v1/logins", body: assertion(challenge, signed), as: SessionToken.self)
    }

    /// Pays (seed 000): the server makes the payment and its challenge, the prompt shows
    /// amount and payee, and the signature covers exactly this payment.
    public func pay(username: String, amount: String, currency: String, payee: String,
                    session token: String) async throws(FingerprintLoginError) -> Payment {
        let credentialId = try await credentialId(username: username)
        let payment = try await http.send(.POST, "/v1/payments",
                                          body: PaymentRequest(amount: amount, currency: currency, payee: payee, credentialId: credentialId),
                                          token: token, as: Payment.self)
        guard let challenge = payment.challenge else { throw .transport("the server sent a payment without a challenge") }
        // What the prompt shows is what is signed: nothing invisible or reordering may be in it.
        guard PromptText.isShowable(payment.payee, length: AccountLimits.payeeLength) else {
            throw .transport("the server sent a payee a prompt cannot show as it is signed; nothing was signed")
        }
        let payload = AssertionPayload.payment(.init(id: payment.paymentId, amount: payment.amount, currency: payment.currency,
                                                     payee: payment.payee),
                                               origin: origin, challenge: challenge.challenge, credentialId: credentialId)
        // What the user confirms is what the server stored, not what was asked for.
        let signed = try await sign(username: username, payload: payload,
                                    reason: "Pay \(payment.amount) \(payment.currency) to \(payment.payee)")
        return try await http.send(.POST, "/v1/payments/\(payment.paymentId)/confirm", body: assertion(challenge, signed),
                                   as: Payment.self)
    }

    /// The user's audit log at the server.
    public func audit(session token: String) async throws(FingerprintLoginError) -> [AuditEntry] {
        try await http.send(.GET, "/v1/audit", token: token, as: AuditLog.self).entries
    }

    private func credentialId(username: String) async throws(FingerprintLoginError) -> String {
        try await boundKey(username: username).credentialId
    }

    /// This device's key for `username` and its credential id, or why there is none.
    private func boundKey(username: String) async throws(FingerprintLoginError) -> (key: DeviceKey, credentialId: String) {
        let key: DeviceKey?
        do { key = try await keyring.key(label: keyLabel(username: username)) } catch { throw Self.device(error) }
        guard let key, let publicKey = try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM) else {
            throw .notBound("this device is not bound for \(username) at \(origin): bind it first (password, then a new key)")
        }
        return (key, KeyIdentifiers.credentialId(publicKey))
    }

    private func sign(username: String, payload: AssertionPayload, reason: String) async throws(FingerprintLoginError) -> DeviceSignature {
        do { return try await keyring.sign(label: keyLabel(username: username), data: payload.bytes, reason: reason) } catch {
            throw Self.device(error)
        }
    }

    private func assertion(_ challenge: Challenge, _ signed: DeviceSignature) -> AssertionRequest {
        AssertionRequest(challengeId: challenge.challengeId, credentialId: challenge.credentialId, counter: signed.counter,
                         signature: signed.signature.base64EncodedString())
    }

    private static func device(_ error: any Error) -> FingerprintLoginError {
        if let error = error as? FingerprintLoginError { return error }
        if let error = error as? AuthError { return .device(error) }
        return .device(AuthError(.readerFailure, "\(error)"))
    }
}

/// What ``FingerprintLogin/bind(username:password:deviceName:deviceId:bindingCode:requestApproval:)`` did.
public enum BindingResult: Sendable {
    /// The device is bound.
    case bound(BoundDevice)
    /// The device waits for a bound device's approval; `session` is the password session to wait with.
    case waitingForApproval(PendingBinding, session: String)
}

private struct Registration: Decodable {
    let username: String
}

private struct Unbinding: Decodable {
    let deviceId: String
}
