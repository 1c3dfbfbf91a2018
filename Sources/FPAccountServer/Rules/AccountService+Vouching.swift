import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation

/// What vouched for a device, as the audit log says it.
enum DeviceVoucher: String, Sendable {
    /// The same device again (its identity key speaks): a new key after the old one was
    /// invalidated, frozen or blocked.
    case sameDevice = "the same device's identity key"
    /// An identity key the administrator registered.
    case administrator = "an identity the administrator registered"
    /// A TPM certified by a CA the operator trusts holds the identity key (credential
    /// activation), and the operator lets that vouch alone (`--tpm-vouches`).
    case tpm = "a TPM certified by a CA the server trusts"
    /// An operator's one-time code.
    case bindingCode = "a binding code"
    /// The account's first device, on the password alone (trust on first use).
    case firstDevice = "the account's first device"
    /// Nothing yet: a bound device is asked to approve.
    case approvalRequested = "waiting for approval"
}

extension AccountService {
    /// Who vouches for `binding`, in order: the administrator's list (required for every
    /// binding with `--trusted-identities-only`), the device's own identity when it is bound
    /// already, a TPM proof (``checkTPM(_:identityKey:)``; alone only with `--tpm-vouches`, and
    /// checked in any case), an operator's binding code, the password alone for an account's first device
    /// (unless `--first-device-needs-code`), and otherwise a bound device's approval when the
    /// client asks for it. The password alone never binds a second device: whoever stole it
    /// could otherwise bind a key of their own making and sign as the user.
    func voucher(for binding: DeviceBinding, request: BindRequest) async throws -> DeviceVoucher {
        let trusted = try await store.isTrusted(identityKey: binding.identityKey, localUser: binding.localUser)
        if configuration.trustedIdentitiesOnly && !trusted {
            throw AccountError(.identityNotTrusted, "this server binds only device identities its administrator registered, "
                               + "and this one (device \(binding.deviceId), local user \(binding.localUser ?? "unknown")) is not: "
                               + "ask the administrator to run 'fpbridge-server device trust' with this device's identity key")
        }
        if try await store.deviceIdentity(username: binding.username, deviceId: binding.deviceId) == binding.identityKey {
            return .sameDevice
        }
        if trusted { return .administrator }
        // A device that claims a TPM is held to it: a proof that fails is refused, never passed over.
        if let proof = request.tpm {
            try await checkTPM(proof, identityKey: binding.identityKey)
            // A maker's CA vouches for hardware, not for whose hardware: the rest still decides.
            if configuration.tpmVouches { return .tpm }
        }
        if let code = request.bindingCode {
            guard try await store.consumeBindingCode(digest: RandomTokens.digest(code), username: binding.username) else {
                throw AccountError(.bindingCodeInvalid, "the binding code is unknown, used, expired or for another account; "
                                   + "ask the operator for a new one")
            }
            return .bindingCode
        }
        // "First" is the first the account ever had: unbinding every device (which the password
        // alone may do) does not make the account new again.
        let credentials = try await store.credentialCounts(username: binding.username)
        let firstDevice = credentials.ever == 0
        if firstDevice && !configuration.firstDeviceNeedsCode { return .firstDevice }
        if request.requestApproval == true && credentials.active > 0 { return .approvalRequested }
        if firstDevice {
            throw AccountError(.deviceNotVouched, "this server binds an account's first device only with a binding code from its operator")
        }
        if credentials.active == 0 {
            throw AccountError(.deviceNotVouched, "\(binding.username) had a device bound before and has none that could approve "
                               + "this one now; the password alone does not bind it: give a binding code from the server's operator")
        }
        throw AccountError(.deviceNotVouched, "\(binding.username) has a bound device already, and the password alone does not bind another: "
                           + "approve this one from a bound device (ask with requestApproval), or give a binding code from the server's operator")
    }

    /// Leaves `binding` waiting for a bound device's approval, with a pairing code the user
    /// types there. At most three wait at once per account.
    func requestApproval(_ binding: DeviceBinding, address: String?) async throws -> PendingBinding {
        let expiresAt = Clock.milliseconds() + Int64(configuration.approvalSeconds) * 1000
        for _ in 0..<3 {
            let row = PendingRow(pendingId: RandomTokens.make(bytes: 16), binding: binding, pairingCode: Self.pairingCode(),
                                 status: "pending", expiresAt: expiresAt)
            let audit = AuditRecord(event: "bind", outcome: "approval-requested", username: binding.username, deviceId: binding.deviceId,
                                    detail: "\(binding.name) (pairing code \(row.pairingCode))", address: address)
            if try await store.insertPending(row, limit: 3, audit: audit) {
                return row.reported(status: "pending", device: nil)
            }
            // A pairing code another open request shows (1 in 10^6 per request), or too many open ones.
            if try await store.openPendingCount(username: binding.username) >= 3 { break }
        }
        throw AccountError(.rateLimited, "three devices of \(binding.username) are waiting for approval already; "
                           + "approve or let them expire (\(configuration.approvalSeconds / 60) minutes), or invite this device "
                           + "from a bound one ('fpbridge account invite' there) and bind it with that binding code",
                           retryAfter: configuration.approvalSeconds)
    }

    /// `GET /v1/devices/pending/{id}`: the new device's own view of its request (the same account's password session).
    func pendingBinding(_ pendingId: String, session: SessionInfo) async throws -> PendingBinding {
        let pendingId = try identifier(pendingId, "pending id")
        guard let row = try await store.pending(pendingId), row.binding.username == session.username else {
            throw AccountError(.notFound, "\(session.username) has no pending binding \(pendingId)")
        }
        let status = row.status == "pending" && !row.isOpen(at: Clock.milliseconds()) ? "expired" : row.status
        var device: BoundDevice?
        if status == "approved" {
            device = try await store.devices(username: session.username).first { $0.credentialId == row.binding.credentialId }
        }
        return row.reported(status: status, device: device)
    }

    /// `POST /v1/approvals/challenges`: a bound device asks to approve the new device that
    /// shows `pairingCode`; the answer shows that device as the prompt must.
    func approvalChallenge(_ request: ApprovalChallengeRequest, address: String?) async throws -> ApprovalChallenge {
        guard AccountLimits.isPairingCode(request.pairingCode) else {
            throw AccountError(.invalidRequest, "'pairingCode' must be the six digits the new device shows")
        }
        let credential = try await activeCredential(request.credentialId, of: try username(request.username))
        // Wrong pairing codes count per address, as forged signatures do: probing the 10^6
        // codes would tell a stranger that a device waits, and its name.
        let misses = ["pairing-miss-address:\(ClientAddress.bucket(address))"]
        try await refuseSpentFailures(misses, what: "wrong pairing codes from this address")
        let open = try await store.openPending(username: credential.username, pairingCode: request.pairingCode)
        guard open.count == 1, let pending = open.first else {
            _ = try await store.hit(misses)
            throw AccountError(.notFound, "no device of \(credential.username) is waiting for approval with pairing code "
                               + "\(request.pairingCode) (requests expire after \(configuration.approvalSeconds / 60) minutes)")
        }
        let challenge = try await issueChallenge(for: credential, purpose: .approveDevice, payment: nil, pendingId: pending.pendingId,
                                                 address: address)
        return ApprovalChallenge(challenge: challenge, pendingId: pending.pendingId, deviceId: pending.binding.deviceId,
                                 name: pending.binding.name, newCredentialId: pending.binding.credentialId, pairingCode: pending.pairingCode,
                                 localUser: pending.binding.localUser, identityKey: pending.binding.localUser.map { _ in pending.binding.identityKey })
    }

    /// `POST /v1/approvals`: a bound device's signature over exactly the pending request
    /// binds the new device, in the transaction that advances the approving key's counter.
    func approve(_ request: AssertionRequest, address: String?) async throws -> BoundDevice {
        var approved: PendingRow?
        let (_, rows) = try await verify(request, purpose: .approveDevice, address: address) { opened in
            guard let pendingId = opened.pendingId, let pending = try await store.pending(pendingId),
                  pending.isOpen(at: Clock.milliseconds()) else {
                throw AccountError(.notFound, "the device waiting for this approval is no longer waiting (approved, or expired)")
            }
            approved = pending
            return .approval(.init(pendingId: pending.pendingId, deviceId: pending.binding.deviceId, name: pending.binding.name,
                                   credentialId: pending.binding.credentialId, pairingCode: pending.pairingCode),
                             origin: origin.value, challenge: opened.challenge, credentialId: request.credentialId)
        } then: { credential in
            guard let pending = approved, pending.binding.username == credential.username else { return [] }
            return store.approvalStatements(pending, challengeId: request.challengeId) + [
                store.guardedAudit(AuditRecord(event: "bind", outcome: "ok", username: credential.username, deviceId: pending.binding.deviceId,
                                               detail: "\(pending.binding.name) (approved by device \(credential.deviceId))",
                                               address: address)),
            ]
        }
        guard let binding = approved?.binding, rows.first?.isEmpty == false, rows.count >= 4, rows[3].isEmpty == false else {
            throw AccountError(.notFound, "the device waiting for this approval is no longer waiting (approved, or expired)")
        }
        return binding.justBound
    }

    /// Six random digits.
    static func pairingCode() -> String {
        let value = SymmetricKey(size: .bits128).withUnsafeBytes { $0.load(as: UInt64.self) } % 1_000_000
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
