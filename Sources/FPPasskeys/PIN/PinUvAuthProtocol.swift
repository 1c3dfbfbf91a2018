import Crypto
import CryptoExtras
import FPStore
import FoundationEssentials

/// CTAP 2.1's PIN/UV auth protocols one and two (§6.5.6, §6.5.7): the shared secret from an
/// ECDH agreement on P-256, AES-256-CBC for what crosses encrypted (the PIN's hash, the token),
/// and HMAC-SHA-256 for what proves the token. One gives 16-byte MACs and a zero IV; two
/// derives separate keys with HKDF, a random IV each time and whole MACs.
package enum PinUvAuthProtocol: Int64, Sendable, CaseIterable {
    case one = 1
    case two = 2

    /// The protocols offered, preferred first (getInfo's `pinUvAuthProtocols`).
    package static let offered: [PinUvAuthProtocol] = [.two, .one]

    private static let hkdfSalt = [UInt8](repeating: 0, count: 32)

    /// The shared secret from ECDH's shared point (its x coordinate, `z`): SHA-256 of it for
    /// one; for two, the HMAC key then the AES key, each 32 bytes from HKDF-SHA-256.
    func sharedSecret(_ z: SharedSecret) -> SymmetricKey {
        switch self {
        case .one:
            return z.withUnsafeBytes { SymmetricKey(data: SHA256.hash(data: $0)) }
        case .two:
            func derive(_ info: String) -> [UInt8] {
                z.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Self.hkdfSalt, sharedInfo: Array(info.utf8), outputByteCount: 32)
                    .withUnsafeBytes { Array($0) }
            }
            return SymmetricKey(data: derive("CTAP2 HMAC key") + derive("CTAP2 AES key"))
        }
    }

    /// `plaintext` (whole AES blocks) encrypted under `secret`.
    func encrypt(_ secret: SymmetricKey, _ plaintext: [UInt8]) throws(CTAP2Error) -> [UInt8] {
        do {
            switch self {
            case .one:
                return Array(try AES._CBC.encrypt(plaintext, using: secret, iv: AES._CBC.IV(ivBytes: Self.zeroIV), noPadding: true))
            case .two:
                var iv = [UInt8](repeating: 0, count: 16)
                var generator = SystemRandomNumberGenerator()
                for index in iv.indices { iv[index] = generator.next() }
                let encrypted = try AES._CBC.encrypt(plaintext, using: aesKey(secret), iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
                return iv + Array(encrypted)
            }
        } catch {
            throw CTAP2Error(.other, "cannot encrypt under the shared secret: \(error)")
        }
    }

    /// `ciphertext` decrypted under `secret`.
    /// - Throws: `CTAP2_ERR_INVALID_PARAMETER` (as CTAP wants) for a length that is not whole blocks.
    package func decrypt(_ secret: SymmetricKey, _ ciphertext: [UInt8], _ name: String) throws(CTAP2Error) -> [UInt8] {
        let ivLength = self == .two ? 16 : 0
        guard ciphertext.count > ivLength, (ciphertext.count - ivLength) % 16 == 0 else {
            throw CTAP2Error(.invalidParameter, "\(name) is \(ciphertext.count) bytes: not whole AES blocks under protocol \(rawValue)")
        }
        do {
            // What is decrypted is a secret (a PIN's hash, a new PIN): the copy AES returns is wiped.
            var plain = self == .one
                ? try AES._CBC.decrypt(ciphertext, using: secret, iv: AES._CBC.IV(ivBytes: Self.zeroIV), noPadding: true)
                : try AES._CBC.decrypt(ciphertext.dropFirst(16), using: aesKey(secret),
                                       iv: AES._CBC.IV(ivBytes: ciphertext.prefix(16)), noPadding: true)
            defer { plain.wipe() }
            return Array(plain)
        } catch {
            throw CTAP2Error(.invalidParameter, "\(name) cannot be decrypted: \(error)")
        }
    }

    /// The MAC of `message` under `key` (the shared secret, or a pinUvAuthToken): HMAC-SHA-256,
    /// its first 16 bytes under one; under two, keyed by the first 32 bytes of `key`.
    func authenticate(_ key: SymmetricKey, _ message: [UInt8]) -> [UInt8] {
        let mac = Array(HMAC<SHA256>.authenticationCode(for: message, using: hmacKey(key)))
        return self == .one ? Array(mac.prefix(16)) : mac
    }

    /// Whether `mac` is `message`'s under `key`, compared in constant time.
    func verify(_ key: SymmetricKey, _ message: [UInt8], mac: [UInt8]) -> Bool {
        let expected = authenticate(key, message)
        return mac.count == expected.count && SymmetricKey(data: mac) == SymmetricKey(data: expected)
    }

    private static let zeroIV = [UInt8](repeating: 0, count: 16)

    private func aesKey(_ secret: SymmetricKey) -> SymmetricKey {
        secret.withUnsafeBytes { SymmetricKey(data: $0.count == 64 ? Array($0.suffix(32)) : Array($0)) }
    }

    private func hmacKey(_ key: SymmetricKey) -> SymmetricKey {
        guard self == .two else { return key }
        return key.withUnsafeBytes { SymmetricKey(data: Array($0.prefix(32))) }
    }
}
