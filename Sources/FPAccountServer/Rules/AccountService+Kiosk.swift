import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation

/// The kiosk login (issue 25): a kiosk arms its reader with a challenge that names no user;
/// whoever touches it is identified by fpbridged, whose key for this server signs the challenge
/// in the same touch (`identify-and-prove`); the answer names the credential, and the server
/// checks it as a device login (``verify(_:purpose:address:payload:then:)``: signature, single
/// use, expiry, counter) and the key's attestation besides, then opens a session for the
/// credential's user. The kiosk is never trusted: it learns the session, not a key.
extension AccountService {
    /// `POST /v1/kiosk/challenges`: a challenge for this server's origin, single use, tied to
    /// no user, counted per client address (a bucket of its own beside device challenges'). Its
    /// purpose is a finger's (`kiosk-login`) or, when asked, a PIN's (`kiosk-pin-login`): each
    /// is opened only by its own route, and the purpose is inside the signed bytes too.
    func kioskChallenge(_ request: KioskChallengeRequest, address: String?) async throws -> KioskChallenge {
        guard request.origin == origin.value else {
            throw AccountError(.invalidRequest, "this server's origin is \(origin.value), not '\(request.origin.prefix(200))': "
                               + "a kiosk login is signed for the origin the kiosk reached")
        }
        let purpose: AssertionPayload.Purpose
        switch request.purpose {
        case nil, AssertionPayload.Purpose.kioskLogin.rawValue: purpose = .kioskLogin
        case AssertionPayload.Purpose.kioskPinLogin.rawValue: purpose = .kioskPinLogin
        case let other?:
            throw AccountError(.invalidRequest, "a kiosk challenge's purpose is 'kiosk-login' or 'kiosk-pin-login', not '\(other.prefix(64))'")
        }
        let limits = [(key: "kiosk-challenge-address:\(ClientAddress.bucket(address))", limit: configuration.challengesPerAddress)]
        let stored = try await storeChallenge(credentialId: "", purpose: purpose, limits: limits, what: "kiosk challenges from this address")
        return KioskChallenge(challengeId: stored.id, challenge: stored.challenge, purpose: purpose.rawValue,
                              origin: origin.value, expiresAt: stored.expiresAt)
    }

    /// `POST /v1/kiosk/logins`: the identified user's proof becomes a session of kind `kiosk`.
    func kioskLogin(_ request: KioskLoginRequest, address: String?) async throws -> SessionToken {
        try await kioskSession(request, purpose: .kioskLogin, address: address)
    }

    /// `POST /v1/kiosk/pin-logins`: the proof fpbridged signed after checking the user's PIN at
    /// the kiosk's PIN pad becomes a session of kind `kiosk-pin`, with every check of a finger's
    /// (``kioskSession(_:purpose:address:)``): a backend that wants a finger can tell them apart.
    func kioskPinLogin(_ request: KioskLoginRequest, address: String?) async throws -> SessionToken {
        try await kioskSession(request, purpose: .kioskPinLogin, address: address)
    }

    /// A kiosk proof of `purpose` checked as a device login is (the challenge of that purpose
    /// spent once, the signature over that purpose's payload, the counter going up) and its
    /// key's attestation besides, then a session of the purpose's kind for the credential's user.
    private func kioskSession(_ request: KioskLoginRequest, purpose: AssertionPayload.Purpose, address: String?) async throws -> SessionToken {
        guard request.attestationStatement.utf8.count <= 4096, let statement = Data(base64Encoded: request.attestationStatement),
              request.attestationSignature.utf8.count <= 200, let attestation = Data(base64Encoded: request.attestationSignature) else {
            throw AccountError(.invalidRequest, "'attestationStatement' and 'attestationSignature' must be base64 (at most 4096 and 200 characters)")
        }
        let pin = purpose == .kioskPinLogin
        let kind = pin ? "kiosk-pin" : "kiosk"
        let token = RandomTokens.make()
        let expiresAt = Clock.milliseconds() + Int64(configuration.fingerprintSessionSeconds) * 1000
        let assertion = AssertionRequest(challengeId: request.challengeId, credentialId: request.credentialId, counter: request.counter,
                                         signature: request.signature)
        let (credential, _) = try await verify(assertion, purpose: purpose, address: address) { opened in
            try await requireAttested(statement: statement, signature: attestation, credentialId: request.credentialId, address: address)
            return pin ? .kioskPinLogin(origin: origin.value, challenge: opened.challenge, credentialId: request.credentialId)
                : .kioskLogin(origin: origin.value, challenge: opened.challenge, credentialId: request.credentialId)
        } then: { credential in
            [store.sessionStatement(digest: RandomTokens.digest(token), username: credential.username, kind: kind, expiresAt: expiresAt),
             store.guardedAudit(AuditRecord(event: purpose.rawValue, outcome: "ok", username: credential.username,
                                            deviceId: credential.deviceId, detail: "counter \(request.counter)", address: address))]
        }
        return SessionToken(token: token, kind: kind, username: credential.username, expiresAt: expiresAt)
    }

    /// The attestation a kiosk's proof carries must be the statement of the device identity the
    /// credential was bound with (and vouched for then) about exactly this key, a
    /// `biometryCurrentSet` key held by fpbridged: only identify-and-prove answers a kiosk
    /// challenge. With `--trusted-identities-only` that identity must still be registered.
    /// One that does not verify counts against the address, as a bad signature does.
    private func requireAttested(statement: Data, signature: Data, credentialId: String, address: String?) async throws {
        func rejected(_ code: AccountErrorCode, _ message: String) async throws -> AccountError {
            _ = try await store.hit(Self.badSignatureKeys(address))
            return AccountError(code, message)
        }
        guard let credential = try await store.credential(credentialId),
              let identityPEM = try await store.deviceIdentity(username: credential.username, deviceId: credential.deviceId),
              let identity = try? P256.Signing.PublicKey(pemRepresentation: identityPEM),
              let key = try? P256.Signing.PublicKey(pemRepresentation: credential.publicKey) else {
            throw AccountError(.challengeInvalid, "the challenge is unknown, used, expired, or not for this credential; ask for a new one")
        }
        guard AttestationFormat.verify(statement: statement, signature: signature, identityKey: identity),
              let contents = AttestationFormat.decode(statement) else {
            throw try await rejected(.attestationRejected, "the attestation does not verify with the identity key of the device this key was bound on")
        }
        guard contents.publicKey == key.x963Representation.base64EncodedString() else {
            throw try await rejected(.attestationRejected, "the attestation is about another key")
        }
        // A kiosk identifies a local user and signs with that user's key for the account of the
        // same name: the key must be that user's, on the device it was bound as (machine and
        // local user). Otherwise one local user's key, labelled for their own name but bound to
        // another's account, would log the kiosk in as that other account.
        guard contents.user == credential.username,
              credential.deviceId == KeyIdentifiers.deviceId(identity, localUser: contents.user)
                || credential.deviceId == KeyIdentifiers.identityId(identity) else {
            throw try await rejected(.attestationRejected, "the key is local user '\(contents.user.prefix(64))'s, and a kiosk logs in "
                                     + "only the account of the same name (\(credential.username)) with a key bound on that user's device")
        }
        guard contents.accessControl == "biometryCurrentSet", contents.protection == "service" else {
            throw AccountError(.keyNotAccepted, "a kiosk login takes only a biometryCurrentSet key held by fpbridged "
                               + "(this one: \(contents.accessControl), \(contents.protection))")
        }
        if configuration.trustedIdentitiesOnly, try await !store.isTrusted(identityKey: identityPEM, localUser: contents.user) {
            throw AccountError(.identityNotTrusted, "this server takes logins only from device identities its administrator registered, "
                               + "and this kiosk's (device \(credential.deviceId)) is not")
        }
    }
}
