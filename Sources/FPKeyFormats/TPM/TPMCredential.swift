import Crypto
import CryptoExtras
import FoundationEssentials

/// TPM2_MakeCredential done in software (TPM 2.0 Part 1, 24: credential protection): a secret
/// that only the TPM holding the endorsement key can release, and only to a key of the given
/// name loaded in that same TPM (TPM2_ActivateCredential).
///
/// A server that gets the secret back therefore knows the key of that name lives in the TPM
/// whose endorsement certificate it checked. Only ECC endorsement keys (P-256, P-384) are supported.
public enum TPMCredential {
    /// What the device hands its TPM: TPM2B_ID_OBJECT's contents and TPM2B_ENCRYPTED_SECRET's.
    public struct Blob: Sendable, Hashable {
        /// The integrity HMAC (as a TPM2B) followed by the encrypted credential.
        public let credential: [UInt8]
        /// The ephemeral ECDH point (TPMS_ECC_POINT) the TPM derives the seed from with its endorsement key.
        public let encryptedSecret: [UInt8]
    }

    /// Wraps `secret` (at most the name hash's size) for the key named `objectName`, to `endorsementKey`.
    public static func make(secret: [UInt8], objectName: [UInt8], endorsementKey: TPMPublicArea) throws(TPMFormatError) -> Blob {
        let hash = endorsementKey.nameAlgorithm
        guard let symmetric = endorsementKey.symmetric, symmetric.algorithm == TPMAlgorithm.aes, symmetric.mode == TPMAlgorithm.cfb,
              symmetric.keyBits == 128 || symmetric.keyBits == 256 else {
            throw TPMFormatError("the endorsement key's symmetric algorithm is not AES-CFB")
        }
        guard secret.count <= TPMHash.size(hash) else { throw TPMFormatError("the secret is longer than a digest") }
        let (z, ephemeral) = try agree(with: endorsementKey)
        // The seed is as long as the endorsement key's name hash (Part 1, 11.4.10.3: KDFe, label "IDENTITY").
        let seed = kdfe(hash, z: z, label: "IDENTITY", partyU: ephemeral.x, partyV: endorsementKey.x, bits: TPMHash.size(hash) * 8)
        let symmetricKey = kdfa(hash, key: seed, label: "STORAGE", contextU: objectName, contextV: [], bits: Int(symmetric.keyBits))
        var plain = TPMWriter()
        plain.sized(secret)
        let encrypted: [UInt8]
        do {
            encrypted = Array(try AES._CFB.encrypt(plain.bytes, using: SymmetricKey(data: symmetricKey),
                                                   iv: try AES._CFB.IV(ivBytes: [UInt8](repeating: 0, count: 16))))
        } catch {
            throw TPMFormatError("AES-CFB failed: \(error)")
        }
        let hmacKey = kdfa(hash, key: seed, label: "INTEGRITY", contextU: [], contextV: [], bits: TPMHash.size(hash) * 8)
        var credential = TPMWriter()
        credential.sized(TPMHash.hmac(hash, key: hmacKey, encrypted + objectName))
        var point = TPMWriter()
        point.sized(ephemeral.x)
        point.sized(ephemeral.y)
        return Blob(credential: credential.bytes + encrypted, encryptedSecret: point.bytes)
    }

    /// The shared x coordinate with a fresh ephemeral key, and that key's public point.
    private static func agree(with endorsementKey: TPMPublicArea) throws(TPMFormatError) -> (z: [UInt8], ephemeral: (x: [UInt8], y: [UInt8])) {
        let point = Data(endorsementKey.x963)
        do {
            switch endorsementKey.curve {
            case TPMAlgorithm.curveP256:
                let peer = try P256.KeyAgreement.PublicKey(x963Representation: point)
                let mine = P256.KeyAgreement.PrivateKey()
                let z = try mine.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
                let raw = Array(mine.publicKey.rawRepresentation)
                return (z, (Array(raw[0..<32]), Array(raw[32...])))
            case TPMAlgorithm.curveP384:
                let peer = try P384.KeyAgreement.PublicKey(x963Representation: point)
                let mine = P384.KeyAgreement.PrivateKey()
                let z = try mine.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
                let raw = Array(mine.publicKey.rawRepresentation)
                return (z, (Array(raw[0..<48]), Array(raw[48...])))
            default:
                throw TPMFormatError("the endorsement key's curve is not P-256 or P-384")
            }
        } catch let error as TPMFormatError {
            throw error
        } catch {
            throw TPMFormatError("the endorsement key's point is not on its curve")
        }
    }

    /// KDFa (Part 1, 11.4.10.2): HMAC in counter mode; the label ends with a zero octet.
    static func kdfa(_ hash: UInt16, key: [UInt8], label: String, contextU: [UInt8], contextV: [UInt8], bits: Int) -> [UInt8] {
        var out: [UInt8] = []
        var counter: UInt32 = 1
        while out.count * 8 < bits {
            var input = TPMWriter()
            input.u32(counter)
            var block = input.bytes + Array(label.utf8) + [0] + contextU + contextV
            var size = TPMWriter()
            size.u32(UInt32(bits))
            block += size.bytes
            out += TPMHash.hmac(hash, key: key, block)
            counter += 1
        }
        return Array(out.prefix(bits / 8))
    }

    /// KDFe (Part 1, 11.4.10.3): the hash in counter mode over the shared secret; the label ends with a zero octet.
    static func kdfe(_ hash: UInt16, z: [UInt8], label: String, partyU: [UInt8], partyV: [UInt8], bits: Int) -> [UInt8] {
        var out: [UInt8] = []
        var counter: UInt32 = 1
        while out.count * 8 < bits {
            var input = TPMWriter()
            input.u32(counter)
            out += TPMHash.digest(hash, input.bytes + z + Array(label.utf8) + [0] + partyU + partyV)
            counter += 1
        }
        return Array(out.prefix(bits / 8))
    }
}
