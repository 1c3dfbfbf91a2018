import FPAccountAPI
import FPKeyFormats
import Foundation

/// Invitations (issue 36, finding 5): anyone with the password can fill an account's pending
/// approvals (three at a time), so a new device that waits for approval can be kept waiting by
/// a password thief. What the thief cannot spend is a finger on a bound device: with it, that
/// device makes a one-time binding code, and the new device binds with the code at once.
extension AccountService {
    /// `POST /v1/invitations/challenges`: a bound device asks to invite a new device of its account.
    func invitationChallenge(_ request: ChallengeRequest, address: String?) async throws -> Challenge {
        let credential = try await activeCredential(request.credentialId, of: try username(request.username))
        return try await issueChallenge(for: credential, purpose: .inviteDevice, payment: nil, address: address)
    }

    /// `POST /v1/invitations`: the bound device's signature over the invitation challenge makes a
    /// one-time binding code, stored (its digest) in the transaction that advances the signing
    /// key's counter, valid as long as an approval waits (``ServerConfiguration/approvalSeconds``).
    func invite(_ request: AssertionRequest, address: String?) async throws -> Invitation {
        let code = RandomTokens.make(bytes: 16)
        let expiresAt = Clock.milliseconds() + Int64(configuration.approvalSeconds) * 1000
        let (credential, _) = try await verify(request, purpose: .inviteDevice, address: address) { opened in
            .invitation(origin: origin.value, challenge: opened.challenge, credentialId: request.credentialId)
        } then: { credential in
            [store.bindingCodeStatement(digest: RandomTokens.digest(code), username: credential.username, expiresAt: expiresAt),
             store.guardedAudit(AuditRecord(event: "invite", outcome: "ok", username: credential.username, deviceId: credential.deviceId,
                                            detail: "a one-time binding code for a new device", address: address))]
        }
        return Invitation(code: code, username: credential.username, expiresAt: expiresAt)
    }
}
