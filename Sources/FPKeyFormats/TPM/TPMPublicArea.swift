import Crypto
import FoundationEssentials

/// An ECC key's public area as a TPM 2.0 describes it (TPMT_PUBLIC), marshalled as the TPM does.
///
/// Its ``name`` is what the TPM binds commands to: the name algorithm, then that hash of
/// exactly these bytes. A server that checks the attributes here and then sees the TPM use
/// the key of this name knows the attributes are the key's own.
public struct TPMPublicArea: Sendable, Hashable {
    /// TPMA_OBJECT bits (Part 2, 8.3).
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        /// An attribute set of these bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The key cannot be duplicated out of its TPM.
        public static let fixedTPM = Attributes(rawValue: 1 << 1)
        /// The key cannot be moved to another parent.
        public static let fixedParent = Attributes(rawValue: 1 << 4)
        /// The TPM made the private key; nobody handed it in.
        public static let sensitiveDataOrigin = Attributes(rawValue: 1 << 5)
        /// The authorisation value may authorise the user role.
        public static let userWithAuth = Attributes(rawValue: 1 << 6)
        /// The admin role needs a policy.
        public static let adminWithPolicy = Attributes(rawValue: 1 << 7)
        /// Signs only digests the TPM made, never one that begins like a TPM's own attestation.
        public static let restricted = Attributes(rawValue: 1 << 16)
        /// Decrypts.
        public static let decrypt = Attributes(rawValue: 1 << 17)
        /// Signs.
        public static let sign = Attributes(rawValue: 1 << 18)
    }

    /// The hash of ``name`` (TPM_ALG_SHA256 or TPM_ALG_SHA384).
    public let nameAlgorithm: UInt16
    /// The object's attributes.
    public let attributes: Attributes
    /// The policy digest its admin (or user) role needs; empty for none.
    public let authPolicy: [UInt8]
    /// Symmetric algorithm, key bits and mode of a storage or endorsement key; nil for none.
    public let symmetric: (algorithm: UInt16, keyBits: UInt16, mode: UInt16)?
    /// The signing scheme and its hash; nil for none.
    public let scheme: (algorithm: UInt16, hash: UInt16)?
    /// TPM_ECC_NIST_P256 or TPM_ECC_NIST_P384.
    public let curve: UInt16
    /// The public point's coordinates; both empty in a template.
    public let x: [UInt8]
    /// See ``x``.
    public let y: [UInt8]

    /// A public area of these fields (a template when `x` and `y` are empty).
    public init(nameAlgorithm: UInt16, attributes: Attributes, authPolicy: [UInt8] = [],
                symmetric: (algorithm: UInt16, keyBits: UInt16, mode: UInt16)?, scheme: (algorithm: UInt16, hash: UInt16)?,
                curve: UInt16, x: [UInt8] = [], y: [UInt8] = []) {
        self.nameAlgorithm = nameAlgorithm
        self.attributes = attributes
        self.authPolicy = authPolicy
        self.symmetric = symmetric
        self.scheme = scheme
        self.curve = curve
        self.x = x
        self.y = y
    }

    /// The attributes every fpbridge device identity key has: made in the TPM, never leaves it,
    /// signs only what the TPM hashed itself.
    public static let identityAttributes: Attributes = [.fixedTPM, .fixedParent, .sensitiveDataOrigin, .userWithAuth, .restricted, .sign]

    /// The template fpbridged creates its identity key from: ECDSA P-256 with SHA-256.
    public static let identityTemplate = TPMPublicArea(
        nameAlgorithm: TPMAlgorithm.sha256, attributes: identityAttributes, symmetric: nil,
        scheme: (TPMAlgorithm.ecdsa, TPMAlgorithm.sha256), curve: TPMAlgorithm.curveP256)

    /// The storage key the identity key is wrapped under: a primary key of the owner hierarchy,
    /// the same each time it is made from this template, so it needs no storing.
    public static let storageTemplate = TPMPublicArea(
        nameAlgorithm: TPMAlgorithm.sha256,
        attributes: [.fixedTPM, .fixedParent, .sensitiveDataOrigin, .userWithAuth, .restricted, .decrypt],
        symmetric: (TPMAlgorithm.aes, 128, TPMAlgorithm.cfb), scheme: nil, curve: TPMAlgorithm.curveP256)

    /// Parses a TPMT_PUBLIC of an ECC key; nothing may follow it.
    public init(marshalled bytes: [UInt8]) throws(TPMFormatError) {
        var reader = TPMReader(bytes)
        guard try reader.u16() == TPMAlgorithm.ecc else { throw TPMFormatError("is not an ECC key") }
        nameAlgorithm = try reader.u16()
        guard nameAlgorithm == TPMAlgorithm.sha256 || nameAlgorithm == TPMAlgorithm.sha384 else {
            throw TPMFormatError("names itself with an unsupported hash")
        }
        attributes = Attributes(rawValue: try reader.u32())
        authPolicy = try reader.sized()
        let symmetricAlgorithm = try reader.u16()
        symmetric = symmetricAlgorithm == TPMAlgorithm.null ? nil : (symmetricAlgorithm, try reader.u16(), try reader.u16())
        let schemeAlgorithm = try reader.u16()
        guard schemeAlgorithm == TPMAlgorithm.null || schemeAlgorithm == TPMAlgorithm.ecdsa else {
            throw TPMFormatError("has a signing scheme other than ECDSA")
        }
        scheme = schemeAlgorithm == TPMAlgorithm.null ? nil : (schemeAlgorithm, try reader.u16())
        curve = try reader.u16()
        guard try reader.u16() == TPMAlgorithm.null else { throw TPMFormatError("has a key derivation scheme") }
        x = try reader.sized()
        y = try reader.sized()
        guard reader.atEnd else { throw TPMFormatError("has bytes after its end") }
    }

    /// The TPMT_PUBLIC bytes.
    public var marshalled: [UInt8] {
        var writer = TPMWriter()
        writer.u16(TPMAlgorithm.ecc)
        writer.u16(nameAlgorithm)
        writer.u32(attributes.rawValue)
        writer.sized(authPolicy)
        if let symmetric {
            writer.u16(symmetric.algorithm)
            writer.u16(symmetric.keyBits)
            writer.u16(symmetric.mode)
        } else {
            writer.u16(TPMAlgorithm.null)
        }
        if let scheme {
            writer.u16(scheme.algorithm)
            writer.u16(scheme.hash)
        } else {
            writer.u16(TPMAlgorithm.null)
        }
        writer.u16(curve)
        writer.u16(TPMAlgorithm.null)
        writer.sized(x)
        writer.sized(y)
        return writer.bytes
    }

    /// The TPM's name of the key: the name algorithm, then its hash of ``marshalled``.
    public var name: [UInt8] {
        var writer = TPMWriter()
        writer.u16(nameAlgorithm)
        return writer.bytes + TPMHash.digest(nameAlgorithm, marshalled)
    }

    /// The public point in X9.63 form (0x04, x, y).
    public var x963: [UInt8] { [0x04] + x + y }

    /// The public area of `key` as an identity key has it.
    public static func identity(_ key: P256.Signing.PublicKey) -> TPMPublicArea {
        let point = Array(key.x963Representation.dropFirst())
        let template = identityTemplate
        return TPMPublicArea(nameAlgorithm: template.nameAlgorithm, attributes: template.attributes, symmetric: nil,
                             scheme: template.scheme, curve: template.curve, x: Array(point[0..<32]), y: Array(point[32...]))
    }

    public static func == (lhs: TPMPublicArea, rhs: TPMPublicArea) -> Bool { lhs.marshalled == rhs.marshalled }
    public func hash(into hasher: inout Hasher) { hasher.combine(marshalled) }
}

/// The hashes a TPM name or KDF may use here.
enum TPMHash {
    static func digest(_ algorithm: UInt16, _ data: [UInt8]) -> [UInt8] {
        algorithm == TPMAlgorithm.sha384 ? Array(SHA384.hash(data: data)) : Array(SHA256.hash(data: data))
    }

    static func hmac(_ algorithm: UInt16, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        return algorithm == TPMAlgorithm.sha384 ? Array(HMAC<SHA384>.authenticationCode(for: data, using: key))
            : Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
    }

    static func size(_ algorithm: UInt16) -> Int { algorithm == TPMAlgorithm.sha384 ? 48 : 32 }
}
