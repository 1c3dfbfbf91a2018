import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation
import SwiftASN1
import X509

/// The TPM makers' CAs the operator trusts (`--tpm-ca`), and the checks of a TPM's evidence
/// against them: the endorsement certificate chains to one of them, the endorsement key is
/// the certificate's, and the identity key is a restricted key that never leaves its TPM.
///
/// Whether the identity key is in *that* TPM is then proved by credential activation: the
/// server's secret, wrapped to the endorsement key for the identity key's name, comes back.
/// The secret is an HMAC under a key of this process, so the credential needs no storing;
/// with several instances a device asks for the credential and binds on the same one.
struct TPMTrust: Sendable {
    /// Self-signed certificates of the files: the anchors.
    let roots: [Certificate]
    /// The others: a maker's intermediate CAs, trusted only through a root.
    let intermediates: [Certificate]
    private let secretKey = SymmetricKey(size: .bits256)

    /// How long a credential's secret binds.
    static let credentialSeconds: Int64 = 300

    /// The CAs in these PEM texts; nil when there is none (no device is vouched for by a TPM then).
    init?(pems: [String]) throws {
        var roots: [Certificate] = []
        var intermediates: [Certificate] = []
        for pem in pems {
            for document in try PEMDocument.parseMultiple(pemString: pem) {
                let certificate = try Certificate(pemDocument: document)
                if certificate.subject == certificate.issuer, certificate.publicKey.isValidSignature(certificate.signature, for: certificate) {
                    roots.append(certificate)
                } else {
                    intermediates.append(certificate)
                }
            }
        }
        guard !pems.isEmpty else { return nil }
        guard !roots.isEmpty else { throw NoRoot() }
        self.roots = roots
        self.intermediates = intermediates
    }

    /// CA files with only intermediates: nothing to anchor them.
    struct NoRoot: Error, CustomStringConvertible {
        var description: String { "no self-signed root CA among them" }
    }

    /// Evidence that held: the parsed public areas and the certificate's digest.
    struct Checked: Sendable {
        let identity: TPMPublicArea
        let endorsement: TPMPublicArea
        let certificateDigest: [UInt8]
    }

    /// The evidence's checks short of activation; `tpmAttestationRejected` naming the first that fails.
    func check(_ evidence: TPMEvidence) async throws -> Checked {
        func refuse(_ why: String) -> AccountError { AccountError(.tpmAttestationRejected, why) }
        guard evidence.endorsementCertificate.utf8.count < 8192, evidence.endorsementKey.utf8.count < 1024, evidence.identityKey.utf8.count < 1024,
              let der = Data(base64Encoded: evidence.endorsementCertificate), let ekBytes = Data(base64Encoded: evidence.endorsementKey),
              let akBytes = Data(base64Encoded: evidence.identityKey) else {
            throw AccountError(.invalidRequest, "'tpm' needs base64 endorsementCertificate, endorsementKey and identityKey")
        }
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: Array(der)) } catch { throw refuse("the endorsement certificate is not X.509 DER") }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy()
            TPMEndorsementPolicy()
        }
        guard case .validCertificate = await verifier.validate(leaf: certificate, intermediates: CertificateStore(intermediates)) else {
            throw refuse("the endorsement certificate does not chain to a TPM maker's CA this server trusts")
        }
        let endorsement: TPMPublicArea
        let identity: TPMPublicArea
        do {
            endorsement = try TPMPublicArea(marshalled: Array(ekBytes))
            identity = try TPMPublicArea(marshalled: Array(akBytes))
        } catch {
            throw refuse("a TPM public area \(error)")
        }
        guard Self.point(of: certificate) == endorsement.x963 else {
            throw refuse("the endorsement key is not the one its certificate certifies")
        }
        guard endorsement.attributes.isSuperset(of: [.fixedTPM, .fixedParent, .restricted, .decrypt]) else {
            throw refuse("the endorsement key is not a restricted decryption key of its TPM")
        }
        guard identity == TPMPublicArea.identity(try Self.identityPoint(identity)) else {
            throw refuse("the identity key is not a restricted ECDSA P-256 key made in the TPM (fixedTPM, fixedParent, sensitiveDataOrigin)")
        }
        return Checked(identity: identity, endorsement: endorsement, certificateDigest: Array(SHA256.hash(data: der)))
    }

    /// The secret a credential for `checked` expiring at `expiresAt` wraps.
    func secret(for checked: Checked, expiresAt: Int64) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Self.message(checked, expiresAt), using: secretKey))
    }

    /// Whether `secret` is that secret (compared in constant time).
    func isSecret(_ secret: Data, for checked: Checked, expiresAt: Int64) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(secret, authenticating: Self.message(checked, expiresAt), using: secretKey)
    }

    private static func message(_ checked: Checked, _ expiresAt: Int64) -> [UInt8] {
        var message = Array("fpbridge-tpm-credential-v1".utf8) + checked.identity.name + checked.certificateDigest
        withUnsafeBytes(of: expiresAt.bigEndian) { message += $0 }
        return message
    }

    /// The identity key's public key, from its area.
    static func identityPoint(_ area: TPMPublicArea) throws -> P256.Signing.PublicKey {
        guard let key = try? P256.Signing.PublicKey(x963Representation: area.x963) else {
            throw AccountError(.tpmAttestationRejected, "the identity key's public area holds no P-256 point")
        }
        return key
    }

    /// The certificate's EC public point (X9.63), P-256 or P-384; nil for any other key.
    static func point(of certificate: Certificate) -> [UInt8]? {
        if let key = P256.Signing.PublicKey(certificate.publicKey) { return Array(key.x963Representation) }
        if let key = P384.Signing.PublicKey(certificate.publicKey) { return Array(key.x963Representation) }
        return nil
    }
}

/// TCG's EK certificates name the TPM's maker, model and version in a critical subject
/// alternative name (their subject is often empty): this policy understands it, and asks nothing more.
struct TPMEndorsementPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.subjectAlternativeName]

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult { .meetsPolicy }
}
