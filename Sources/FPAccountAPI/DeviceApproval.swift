import FPKeyFormats
import Foundation

/// A new device waiting for a bound device's approval: what `POST /v1/devices` answers (202)
/// when nothing else vouches for it, and what `GET /v1/devices/pending/{id}` reports after.
public struct PendingBinding: Codable, Sendable, Hashable {
    /// The server's id of the request.
    public var pendingId: String
    /// The new device's id (derived from its identity key).
    public var deviceId: String
    /// The name it asked to be bound under.
    public var name: String
    /// Six digits the new device shows and the user types on the approving one:
    /// what ties the approval to this request and no other.
    public var pairingCode: String
    /// `pending`, `approved` or `expired`.
    public var status: String
    /// Milliseconds since 1970 after which it can no longer be approved.
    public var expiresAt: Int64
    /// The bound device, once approved.
    public var device: BoundDevice?

    /// A request as the server reports it.
    public init(pendingId: String, deviceId: String, name: String, pairingCode: String, status: String, expiresAt: Int64,
                device: BoundDevice?) {
        self.pendingId = pendingId
        self.deviceId = deviceId
        self.name = name
        self.pairingCode = pairingCode
        self.status = status
        self.expiresAt = expiresAt
        self.device = device
    }
}

/// `POST /v1/approvals/challenges`: the challenge a bound device signs to approve a new one,
/// with the new device as the prompt must show it (the signature covers exactly these fields).
public struct ApprovalChallenge: Codable, Sendable, Hashable {
    /// The challenge (purpose `approve-device`).
    public var challenge: Challenge
    /// The request being approved.
    public var pendingId: String
    /// The new device's id.
    public var deviceId: String
    /// The new device's name.
    public var name: String
    /// The new device's key (its credential id).
    public var newCredentialId: String
    /// The pairing code it was found by.
    public var pairingCode: String
    /// The new device's local user and its machine's identity key (PEM), when the server knows
    /// them: not signed themselves, but ``deviceId`` (which is) is derived from both, so a client
    /// that checks `KeyIdentifiers.deviceId(_:localUser:)` may show whose device it approves.
    public var localUser: String?
    /// See ``localUser``.
    public var identityKey: String?

    /// A challenge with what it approves.
    public init(challenge: Challenge, pendingId: String, deviceId: String, name: String, newCredentialId: String, pairingCode: String,
                localUser: String? = nil, identityKey: String? = nil) {
        self.localUser = localUser
        self.identityKey = identityKey
        self.challenge = challenge
        self.pendingId = pendingId
        self.deviceId = deviceId
        self.name = name
        self.newCredentialId = newCredentialId
        self.pairingCode = pairingCode
    }
}

extension ApprovalChallenge {
    /// What the approving device signs of it: exactly the request, device, name, key and code shown.
    public var approval: AssertionPayload.DeviceApproval {
        AssertionPayload.DeviceApproval(pendingId: pendingId, deviceId: deviceId, name: name, credentialId: newCredentialId,
                                        pairingCode: pairingCode)
    }
}
