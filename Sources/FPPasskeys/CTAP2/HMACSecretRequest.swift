import Crypto
import FPAuthentication

/// getAssertion's `hmac-secret` input (CTAP 2.1 §12.5): the platform's key-agreement key, the
/// salts encrypted under the shared secret, their MAC, and the PIN/UV auth protocol (one when
/// absent). Read before the finger is asked; the salts are decrypted and checked by
/// ``salts(_:)`` against the device's PIN/UV session, also before the finger.
package struct HMACSecretRequest: Sendable {
    /// The extension's name in CTAP's maps.
    static let name = "hmac-secret"

    package let platformKey: CTAP2Arguments
    let saltEnc: [UInt8]
    let saltAuth: [UInt8]
    package let version: PinUvAuthProtocol

    init?(_ extensions: CTAP2Arguments?) throws(CTAP2Error) {
        guard let input = try extensions?.map(.text(Self.name), Self.name) else { return nil }
        platformKey = try input.map(.int(1), "keyAgreement", required: true)!
        saltEnc = try input.bytes(.int(2), "saltEnc", required: true)!
        saltAuth = try input.bytes(.int(3), "saltAuth", required: true)!
        let number = try input.int(.int(4), "pinUvAuthProtocol") ?? PinUvAuthProtocol.one.rawValue
        guard let version = PinUvAuthProtocol(rawValue: number) else {
            throw CTAP2Error(.invalidParameter, "hmac-secret's PIN/UV auth protocol \(number) is not offered (1 and 2 are)")
        }
        self.version = version
    }

    /// The shared secret and the one or two 32-byte salts.
    /// - Throws: `CTAP2_ERR_PIN_AUTH_INVALID` when saltAuth is not the shared secret's MAC of
    ///   saltEnc, `CTAP1_ERR_INVALID_LENGTH` for salts that are not 32 or 64 bytes.
    package func salts(_ session: PinUvSession) throws(CTAP2Error) -> HMACSecretSalts {
        let secret = try session.sharedSecret(with: platformKey, version)
        guard version.verify(secret, saltEnc, mac: saltAuth) else {
            throw CTAP2Error(.pinAuthInvalid, "hmac-secret's saltAuth is not the shared secret's MAC of saltEnc")
        }
        return try decrypted(under: secret)
    }

    /// The salts decrypted under `secret`, once saltAuth is known to be its MAC (the fuzz
    /// target comes here with any saltEnc).
    package func decrypted(under secret: SymmetricKey) throws(CTAP2Error) -> HMACSecretSalts {
        let salts = try version.decrypt(secret, saltEnc, "saltEnc")
        guard salts.count == 32 || salts.count == 64 else {
            throw CTAP2Error(.invalidLength, "hmac-secret's salts are \(salts.count) bytes, not 32 or 64")
        }
        return HMACSecretSalts(secret: secret, version: version, salts: salts)
    }
}

/// The salts of one getAssertion's `hmac-secret`, decrypted, with the secret to encrypt the
/// outputs under.
package struct HMACSecretSalts: Sendable {
    let secret: SymmetricKey
    let version: PinUvAuthProtocol
    package let salts: [UInt8]

    /// The extension's output: HMAC(secret, salt1) [‖ HMAC(secret, salt2)], encrypted for the platform.
    func output(_ credential: PasskeySecret) throws(CTAP2Error) -> CBORValue {
        var outputs: [UInt8] = []
        outputs.reserveCapacity(64)  // one buffer, wiped below
        for start in stride(from: 0, to: salts.count, by: 32) {
            var output = credential.hmac(Array(salts[start..<start + 32]))
            outputs += output
            output.wipe()
        }
        defer { outputs.wipe() }
        return .bytes(try version.encrypt(secret, outputs))
    }
}
