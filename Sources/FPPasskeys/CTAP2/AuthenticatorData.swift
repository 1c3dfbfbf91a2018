import Crypto
import FoundationEssentials

/// The authenticator data a passkey signs and a site checks (WebAuthn §6.1): the SHA-256 of
/// the relying party id, the flags, the signature counter, and at registration the
/// credential's id and public key.
enum AuthenticatorData {
    /// The flags of every answer: UP (0x01) and UV (0x04) together, because every request is
    /// carried out only after a fingerprint match, which is both.
    static let verifiedFlags: UInt8 = 0x01 | 0x04
    /// AT (0x40): attested credential data follows.
    static let attestedFlag: UInt8 = 0x40
    /// ED (0x80): extension outputs follow, as a CBOR map.
    static let extensionsFlag: UInt8 = 0x80

    /// The authenticator data of an assertion, with `extensions`' outputs when there are any.
    static func assertion(relyingParty: String, counter: UInt32, extensions: [CBORValue: CBORValue] = [:]) -> [UInt8] {
        rpIDHash(relyingParty) + [verifiedFlags | (extensions.isEmpty ? 0 : extensionsFlag)] + bigEndian(counter)
            + (extensions.isEmpty ? [] : CBOREncoder.encode(.map(extensions)))
    }

    /// The authenticator data of a registration: the credential's id and its COSE public key.
    static func registration(relyingParty: String, counter: UInt32, aaguid: [UInt8], credentialID: [UInt8],
                             publicKey: Data, extensions: [CBORValue: CBORValue] = [:]) throws(CTAP2Error) -> [UInt8] {
        rpIDHash(relyingParty) + [verifiedFlags | attestedFlag | (extensions.isEmpty ? 0 : extensionsFlag)] + bigEndian(counter) + aaguid
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID
            + CBOREncoder.encode(try coseKey(publicKey))
            + (extensions.isEmpty ? [] : CBOREncoder.encode(.map(extensions)))
    }

    /// The P-256 key in COSE form (RFC 9053): kty EC2 (1: 2), alg ES256 (3: -7), crv P-256
    /// (-1: 1), x (-2) and y (-3).
    static func coseKey(_ x963: Data) throws(CTAP2Error) -> CBORValue {
        let bytes = [UInt8](x963)
        guard bytes.count == 65, bytes[0] == 0x04 else {
            throw CTAP2Error(.other, "the passkey's public key is not an uncompressed P-256 point")
        }
        return .map([.int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1),
                     .int(-2): .bytes(Array(bytes[1...32])), .int(-3): .bytes(Array(bytes[33...64]))])
    }

    static func rpIDHash(_ relyingParty: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(relyingParty.utf8)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
