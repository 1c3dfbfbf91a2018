import FPAccountAPI
import FPKeyFormats
import Foundation

extension AccountService {
    /// `POST /v1/challenges`: a single-use login challenge for an active credential.
    func loginChallenge(_ request: ChallengeRequest, address: String?) async throws -> Challenge {
        let credential = try await activeCredential(request.credentialId, of: try username(request.username))
        return try await issueChallenge(for: credential, purpose: .login, payment: nil, address: address)
    }

    /// `POST /v1/logins` (seed 002, step 3): a signed login challenge becomes a short session.
    func login(_ request: AssertionRequest, address: String?) async throws -> SessionToken {
        let token = RandomTokens.make()
        let expiresAt = Clock.milliseconds() + Int64(configuration.fingerprintSessionSeconds) * 1000
        let (credential, _) = try await verify(request, purpose: .login, address: address) { opened in
            .login(origin: origin.value, challenge: opened.challenge, credentialId: request.credentialId)
        } then: { credential in
            // The session and its audit line commit with the counter, or not at all.
            [store.sessionStatement(digest: RandomTokens.digest(token), username: credential.username, kind: "fingerprint", expiresAt: expiresAt),
             store.guardedAudit(AuditRecord(event: "fingerprint-login", outcome: "ok", username: credential.username,
                                            deviceId: credential.deviceId, detail: "counter \(request.counter)", address: address))]
        }
        return SessionToken(token: token, kind: "fingerprint", username: credential.username, expiresAt: expiresAt)
    }

    /// The credential, if it is the user's and active; otherwise the refusal that says why.
    func activeCredential(_ credentialId: String, of username: String) async throws -> CredentialRow {
        guard let credential = try await store.credential(try identifier(credentialId, "credentialId")),
              credential.username == username else {
            throw AccountError(.invalidCredentials, "\(username) has no credential \(credentialId): bind this device first")
        }
        if let refusal = Self.refusal(for: credential.status) { throw refusal }
        return credential
    }

    /// Counts the challenge against the credential's, the account's and the client address's
    /// limits, then stores it (with the payment it confirms, in the same transaction).
    func issueChallenge(for credential: CredentialRow, purpose: AssertionPayload.Purpose, payment: PaymentRow?,
                        pendingId: String? = nil, address: String?) async throws -> Challenge {
        // Per credential from one address, and per address: what one client may ask, and nothing
        // shared by all clients. A stranger who knows the user name and credential id (neither
        // is secret) spends only the buckets of the addresses they hold, never the user's own:
        // an account-wide cap (there was one, 600 a minute) let 21 addresses, one IPv6 /59,
        // keep the owner's logins and payments at 429 (issue 36). The server's work is bounded
        // per address as for every other request, and a challenge lives at most 300 s.
        let bucket = ClientAddress.bucket(address)
        let limits = [(key: "challenge-credential-address:\(credential.credentialId):\(bucket)", limit: configuration.challengesPerCredential),
                      (key: "challenge-address:\(bucket)", limit: configuration.challengesPerAddress)]
        let audit = payment.map {
            AuditRecord(event: "payment-created", outcome: "ok", username: credential.username, deviceId: credential.deviceId,
                        detail: "\($0.paymentId): \($0.amount) \($0.currency) to \($0.payee)", address: address)
        }
        let stored = try await storeChallenge(credentialId: credential.credentialId, purpose: purpose, limits: limits, payment: payment,
                                              pendingId: pendingId, audit: audit, what: "challenges for this device from this address, or from this address")
        return Challenge(challengeId: stored.id, challenge: stored.challenge, purpose: purpose.rawValue, origin: origin.value,
                         credentialId: credential.credentialId, expiresAt: stored.expiresAt)
    }

    /// A new single-use challenge of `purpose` for `credentialId` ("" for a kiosk's, which names
    /// none), valid ``ServerConfiguration/challengeSeconds``, stored only within `limits`
    /// (otherwise `rateLimited`, naming `what`).
    func storeChallenge(credentialId: String, purpose: AssertionPayload.Purpose, limits: [(key: String, limit: Int)],
                        payment: PaymentRow? = nil, pendingId: String? = nil, audit: AuditRecord? = nil,
                        what: String) async throws -> (id: String, challenge: String, expiresAt: Int64) {
        let id = RandomTokens.make(bytes: 16)
        let challenge = RandomTokens.make(bytes: 32)
        let expiresAt = Clock.milliseconds() + Int64(configuration.challengeSeconds) * 1000
        let result = try await store.issueChallenge(id: id, credentialId: credentialId, purpose: purpose.rawValue,
                                                    challenge: challenge, paymentId: payment?.paymentId, pendingId: pendingId,
                                                    expiresAt: expiresAt, limits: limits, payment: payment, audit: audit)
        if !result.stored {
            try checkLimits(result.hits, limits.map(\.limit), what: what)
            throw DatabaseFailure(description: "the challenge was not stored")
        }
        return (id, challenge, expiresAt)
    }

    /// Checks a signed assertion: the challenge open and the credential active, the
    /// signature over exactly the expected bytes, then the challenge consumed (exactly one
    /// request gets it, on any instance), and last the counter. A signature that does not
    /// verify spends nothing and counts against nobody's credential: anyone can send one,
    /// and no number of them gets closer to a valid one (ECDSA), so they are only
    /// rate-limited by the address they come from. A counter that goes back freezes the
    /// credential: only its holder's key can sign it. Nothing is recorded as a success
    /// unless all of it holds.
    func verify(_ request: AssertionRequest, purpose: AssertionPayload.Purpose, address: String?,
                payload: (OpenChallenge) async throws -> AssertionPayload,
                then: (CredentialRow) -> [SQLStatement]) async throws -> (CredentialRow, [[SQLRow]]) {
        let event = switch purpose {
        case .payment: "payment"
        case .login: "fingerprint-login"
        case .approveDevice: "approve-device"
        case .kioskLogin: "kiosk-login"
        case .kioskPinLogin: "kiosk-pin-login"
        case .inviteDevice: "invite-device"
        }
        let challengeId = try identifier(request.challengeId, "challengeId")
        guard let signature = Data(base64Encoded: request.signature), signature.count <= 80,
              request.counter <= UInt64(Int64.max) else {
            throw AccountError(.invalidRequest, "'signature' must be a DER signature in base64 and 'counter' at most 2^63-1")
        }
        let badSignatures = Self.badSignatureKeys(address)
        let invalidChallenge = AccountError(.challengeInvalid, "the challenge is unknown, used, expired, or not for this credential; ask for a new one")
        guard let credential = try await store.credential(try identifier(request.credentialId, "credentialId")) else {
            throw invalidChallenge
        }
        func fail(_ error: AccountError) async throws -> AccountError {
            try await store.audit(AuditRecord(event: event, outcome: error.code.rawValue, username: credential.username,
                                              deviceId: credential.deviceId, detail: "", address: address))
            return error
        }
        // A kiosk's challenge names no credential: the signed payload names the one that answered.
        let challengeOwner = [.kioskLogin, .kioskPinLogin].contains(purpose) ? "" : credential.credentialId
        guard let opened = try await store.openChallenge(challengeId, credentialId: challengeOwner, purpose: purpose.rawValue) else {
            throw try await fail(invalidChallenge)
        }
        if let refusal = Self.refusal(for: credential.status) { throw try await fail(refusal) }
        let expected: AssertionPayload
        do { expected = try await payload(opened) } catch let error as AccountError { throw try await fail(error) }
        guard let key = keys.key(credential.credentialId, pem: credential.publicKey),
              SignatureFormat.verify(signature: signature, counter: request.counter, data: expected.bytes, key: key) else {
            // Counted once a signature has failed, never checked before one is read: a signature
            // that verifies is never refused for bad ones sent from the same address (another
            // user of a shared machine, everyone behind one NAT; issue 36).
            // Past the limit the answer is 429 and no audit line: a flood of forgeries writes one
            // counter, not a row each.
            let hits = try await store.hit(badSignatures)
            try checkLimits(hits, [configuration.badSignaturesPerAddress], what: "signatures that did not verify from this address")
            throw try await fail(AccountError(.verificationFailed, "the signature does not verify over this challenge; the challenge "
                                              + "is still open, and a signature that does not verify never blocks the device"))
        }
        guard try await store.consumeChallenge(challengeId, credentialId: challengeOwner, purpose: purpose.rawValue,
                                               opened: opened) else {
            throw try await fail(invalidChallenge)
        }
        let counter = Int64(request.counter)
        guard let rows = try await store.advanceCounter(credential.credentialId, to: counter, assertion: challengeId,
                                                        then: then(credential)) else {
            let now = try await store.credential(credential.credentialId)
            if let now, now.status == .active {
                try await store.freeze(credential.credentialId, audit: AuditRecord(
                    event: event, outcome: AccountErrorCode.credentialFrozen.rawValue, username: credential.username,
                    deviceId: credential.deviceId, detail: "counter \(counter) after \(now.counter)", address: address))
                throw Self.refusal(for: .frozen)!
            }
            throw try await fail(Self.refusal(for: now?.status ?? .revoked) ?? invalidChallenge)
        }
        return (credential, rows)
    }

    /// The rate keys a signature (or attestation) that does not verify counts against: its address only.
    static func badSignatureKeys(_ address: String?) -> [String] {
        ["bad-signature-address:\(ClientAddress.bucket(address))"]
    }

    /// The refusal for a credential that is not active; nil when it is.
    static func refusal(for status: CredentialStatus) -> AccountError? {
        switch status {
        case .active: nil
        case .frozen: AccountError(.credentialFrozen, "this device's key counter went back (a cloned or replayed key): "
                                   + "it is frozen; log in with the password and bind the device again")
        case .blocked: AccountError(.credentialBlocked, "an earlier version of this server blocked this device after five failed "
                                    + "verifications; log in with the password and bind it again")
        case .revoked: AccountError(.credentialRevoked, "this device was unbound or bound again with a newer key; "
                                    + "log in with the password and bind it again")
        }
    }
}
