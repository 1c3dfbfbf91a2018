import Foundation

/// A session token: after a password (`password`) or a fingerprint login (`fingerprint`).
public struct SessionToken: Codable, Sendable, Hashable {
    /// The bearer token, for `Authorization: Bearer …`.
    public var token: String
    /// `password`, `fingerprint` or `kiosk` (a kiosk login).
    public var kind: String
    /// Whose session.
    public var username: String
    /// Milliseconds since 1970 after which it is refused.
    public var expiresAt: Int64

    /// A token as the server issues it.
    public init(token: String, kind: String, username: String, expiresAt: Int64) {
        self.token = token
        self.kind = kind
        self.username = username
        self.expiresAt = expiresAt
    }
}

/// A bound device and its current credential.
public struct BoundDevice: Codable, Sendable, Hashable {
    /// `KeyIdentifiers.deviceId(_:localUser:)` of its machine's identity key and local user
    /// (a device bound before the server kept the local user: `KeyIdentifiers.identityId(_:)`).
    public var deviceId: String
    /// Its name for people.
    public var name: String
    /// The credential that logs in now.
    public var credentialId: String
    /// `active`, `frozen` (its counter went back), `blocked` (5 failed verifications) or `revoked`.
    public var status: String
    /// The key's access control, from its attestation.
    public var accessControl: String
    /// `service` or `development`, from its attestation.
    public var protection: String
    /// Milliseconds since 1970.
    public var boundAt: Int64
    /// Milliseconds since 1970 of the last verified signature, if any.
    public var lastUsedAt: Int64?
    /// The local user of the machine whose key it is (several people may share a machine, each
    /// a device of their own); nil for a device bound before the server kept it.
    public var localUser: String?

    /// A device as the server lists it.
    public init(deviceId: String, name: String, credentialId: String, status: String, accessControl: String,
                protection: String, boundAt: Int64, lastUsedAt: Int64?, localUser: String? = nil) {
        self.localUser = localUser
        self.deviceId = deviceId
        self.name = name
        self.credentialId = credentialId
        self.status = status
        self.accessControl = accessControl
        self.protection = protection
        self.boundAt = boundAt
        self.lastUsedAt = lastUsedAt
    }
}

/// `GET /v1/devices`.
public struct DeviceList: Codable, Sendable, Hashable {
    /// The user's devices, newest binding first.
    public var devices: [BoundDevice]

    /// A list.
    public init(devices: [BoundDevice]) { self.devices = devices }
}

/// A challenge to sign: single use, bound to one credential and one purpose.
public struct Challenge: Codable, Sendable, Hashable {
    /// Its id, to send back with the signature.
    public var challengeId: String
    /// 32 random bytes, base64url: what goes into the signed assertion.
    public var challenge: String
    /// `login`, `payment` or `approve-device`.
    public var purpose: String
    /// The origin the server expects in the assertion.
    public var origin: String
    /// The credential it is for.
    public var credentialId: String
    /// Milliseconds since 1970 after which it is refused.
    public var expiresAt: Int64

    /// A challenge as the server issues it.
    public init(challengeId: String, challenge: String, purpose: String, origin: String, credentialId: String, expiresAt: Int64) {
        self.challengeId = challengeId
        self.challenge = challenge
        self.purpose = purpose
        self.origin = origin
        self.credentialId = credentialId
        self.expiresAt = expiresAt
    }
}

/// A payment and, while it is pending, the challenge that confirms it.
public struct Payment: Codable, Sendable, Hashable {
    /// The server's id.
    public var paymentId: String
    /// Canonical amount (`12.50`).
    public var amount: String
    /// ISO 4217 code.
    public var currency: String
    /// Who is paid.
    public var payee: String
    /// `pending` or `confirmed`.
    public var status: String
    /// The challenge to sign, while pending.
    public var challenge: Challenge?

    /// A payment as the server reports it.
    public init(paymentId: String, amount: String, currency: String, payee: String, status: String, challenge: Challenge?) {
        self.paymentId = paymentId
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.status = status
        self.challenge = challenge
    }
}

/// `GET /v1/me`: who the token belongs to.
public struct SessionInfo: Codable, Sendable, Hashable {
    /// The user.
    public var username: String
    /// `password`, `fingerprint` or `kiosk` (a kiosk login).
    public var kind: String
    /// Milliseconds since 1970.
    public var expiresAt: Int64

    /// The facts of a session.
    public init(username: String, kind: String, expiresAt: Int64) {
        self.username = username
        self.kind = kind
        self.expiresAt = expiresAt
    }
}

/// One line of the audit log (never a secret: no password, token, challenge or signature).
public struct AuditEntry: Codable, Sendable, Hashable {
    /// Milliseconds since 1970.
    public var at: Int64
    /// `register`, `password-login`, `bind`, `unbind`, `fingerprint-login`, `payment-created`, `payment` …
    public var event: String
    /// `ok`, or the error code it ended with.
    public var outcome: String
    /// The user, when known.
    public var username: String?
    /// The device, when one was involved.
    public var deviceId: String?
    /// Details for people (amount and payee of a payment, a device's name).
    public var detail: String
    /// The client's address.
    public var address: String?

    /// An entry.
    public init(at: Int64, event: String, outcome: String, username: String?, deviceId: String?, detail: String, address: String?) {
        self.at = at
        self.event = event
        self.outcome = outcome
        self.username = username
        self.deviceId = deviceId
        self.detail = detail
        self.address = address
    }
}

/// `GET /v1/audit`: the caller's own entries, newest first.
public struct AuditLog: Codable, Sendable, Hashable {
    /// The entries.
    public var entries: [AuditEntry]

    /// A log.
    public init(entries: [AuditEntry]) { self.entries = entries }
}
