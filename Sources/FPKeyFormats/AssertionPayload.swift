import FoundationEssentials

/// The data a device key signs to log in, to confirm a payment or to approve a new device.
///
/// Byte for byte: `"fpbridge-assertion-v1"` and a zero byte, then each field
/// as its UTF-8 length (4 bytes, big-endian) and its UTF-8 bytes, in this
/// order: purpose, origin, challenge, credential id, and for a payment the
/// payment id, amount, currency and payee; for a device approval the request's
/// id, the new device's id, name and credential id, and the pairing code. Lengths make the encoding
/// unambiguous whatever a field contains. The key's counter is not here: the
/// signature format puts it in front of this data (``SignatureFormat``).
public struct AssertionPayload: Sendable, Hashable {
    /// The prefix that keeps these bytes from passing for anything else.
    public static let domain = Data("fpbridge-assertion-v1\u{0}".utf8)

    /// What the assertion is for.
    public enum Purpose: String, Sendable, Hashable, Codable, CaseIterable {
        /// A fingerprint login.
        case login
        /// A payment confirmation.
        case payment
        /// A bound device's approval of a new device of the same account.
        case approveDevice = "approve-device"
        /// A login at a kiosk: the challenge named no user, and the key of whoever the
        /// kiosk's reader identified answered it (`identify-and-prove` in fpbridged).
        case kioskLogin = "kiosk-login"
        /// A bound device's invitation: a one-time binding code for a new device of the same
        /// account, made with a finger on the bound device (nothing to approve waits for it).
        case inviteDevice = "invite-device"
        /// A login at a kiosk's PIN pad: the server's kiosk challenge, answered by the key of the
        /// user whose PIN fpbridged checked (its passcode check). A purpose of its own, inside
        /// the signed bytes, so that a server never takes a PIN for a finger nor the reverse.
        case kioskPinLogin = "kiosk-pin-login"
    }

    /// The new device a signature approves: exactly this request, key and name.
    public struct DeviceApproval: Sendable, Hashable {
        /// The server's id of the pending binding.
        public let pendingId: String
        /// The new device's id.
        public let deviceId: String
        /// Its name, as shown to the user.
        public let name: String
        /// The credential id of the key it asked to bind.
        public let credentialId: String
        /// The pairing code the user typed, as the new device showed it.
        public let pairingCode: String

        /// An approval as the server described the request.
        public init(pendingId: String, deviceId: String, name: String, credentialId: String, pairingCode: String) {
            self.pendingId = pendingId
            self.deviceId = deviceId
            self.name = name
            self.credentialId = credentialId
            self.pairingCode = pairingCode
        }
    }

    /// The payment a signature confirms: exactly this payment and no other (dynamic linking).
    public struct Payment: Sendable, Hashable {
        /// The server's id of the payment.
        public let id: String
        /// The amount in its canonical text: digits, a dot and two decimals (`12.50`).
        public let amount: String
        /// The ISO 4217 code (`EUR`).
        public let currency: String
        /// Who is paid, as shown to the user.
        public let payee: String

        /// A payment as the server created it.
        public init(id: String, amount: String, currency: String, payee: String) {
            self.id = id
            self.amount = amount
            self.currency = currency
            self.payee = payee
        }
    }

    /// Login or payment.
    public let purpose: Purpose
    /// The server's origin as the client reached it (`https://bank.example`).
    public let origin: String
    /// The server's challenge, base64url as the server sent it.
    public let challenge: String
    /// The credential the server issued the challenge for.
    public let credentialId: String
    /// The payment, for a payment; nil otherwise.
    public let payment: Payment?
    /// The new device, for a device approval; nil otherwise.
    public let device: DeviceApproval?

    /// A login assertion.
    public static func login(origin: String, challenge: String, credentialId: String) -> AssertionPayload {
        AssertionPayload(purpose: .login, origin: origin, challenge: challenge, credentialId: credentialId, payment: nil, device: nil)
    }

    /// A payment assertion.
    public static func payment(_ payment: Payment, origin: String, challenge: String, credentialId: String) -> AssertionPayload {
        AssertionPayload(purpose: .payment, origin: origin, challenge: challenge, credentialId: credentialId, payment: payment, device: nil)
    }

    /// A kiosk login: the server's kiosk challenge, answered by the key of the user the
    /// kiosk's reader identified (`credentialId` is that key's, known only after the scan).
    public static func kioskLogin(origin: String, challenge: String, credentialId: String) -> AssertionPayload {
        AssertionPayload(purpose: .kioskLogin, origin: origin, challenge: challenge, credentialId: credentialId, payment: nil, device: nil)
    }

    /// A kiosk PIN login: the server's kiosk challenge, answered by the key of the user whose
    /// PIN fpbridged checked at the kiosk's PIN pad.
    public static func kioskPinLogin(origin: String, challenge: String, credentialId: String) -> AssertionPayload {
        AssertionPayload(purpose: .kioskPinLogin, origin: origin, challenge: challenge, credentialId: credentialId, payment: nil, device: nil)
    }

    /// A bound device's invitation of a new device (a one-time binding code), signed by its credential.
    public static func invitation(origin: String, challenge: String, credentialId: String) -> AssertionPayload {
        AssertionPayload(purpose: .inviteDevice, origin: origin, challenge: challenge, credentialId: credentialId, payment: nil, device: nil)
    }

    /// A device approval, signed by a bound device's credential.
    public static func approval(_ device: DeviceApproval, origin: String, challenge: String, credentialId: String) -> AssertionPayload {
        AssertionPayload(purpose: .approveDevice, origin: origin, challenge: challenge, credentialId: credentialId, payment: nil, device: device)
    }

    /// The bytes to sign.
    public var bytes: Data {
        var fields = [purpose.rawValue, origin, challenge, credentialId]
        if let payment { fields += [payment.id, payment.amount, payment.currency, payment.payee] }
        if let device { fields += [device.pendingId, device.deviceId, device.name, device.credentialId, device.pairingCode] }
        var data = Self.domain
        for field in fields {
            let utf8 = Data(field.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).bigEndian) { data.append(contentsOf: $0) }
            data.append(utf8)
        }
        return data
    }
}
