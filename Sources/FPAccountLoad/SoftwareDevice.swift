import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation

/// A device whose keys are in memory: what the benchmark's load generator and the
/// server's tests sign with, in the exact formats fpbridged uses, without a finger.
/// Never a way to log in for real: the server refuses its keys unless they claim to
/// live in the service, which only a test or benchmark server takes on trust.
package struct SoftwareDevice: Sendable {
    package let identity: P256.Signing.PrivateKey
    package let key: P256.Signing.PrivateKey
    package let accessControl: String
    package let protection: String
    /// The local user of the machine the key belongs to, as the attestation names it.
    package let localUser: String

    package init(identity: P256.Signing.PrivateKey = .init(), key: P256.Signing.PrivateKey = .init(),
                 accessControl: String = "biometryCurrentSet", protection: String = "service", localUser: String = "load") {
        self.identity = identity
        self.key = key
        self.accessControl = accessControl
        self.protection = protection
        self.localUser = localUser
    }

    /// The same device (identity and local user) with a new key.
    package func newKey() -> SoftwareDevice {
        SoftwareDevice(identity: identity, key: .init(), accessControl: accessControl, protection: protection, localUser: localUser)
    }

    /// Another local user of the same machine (the same identity key), with a key of their own.
    package func otherUser(_ localUser: String) -> SoftwareDevice {
        SoftwareDevice(identity: identity, key: .init(), accessControl: accessControl, protection: protection, localUser: localUser)
    }

    package var credentialId: String { KeyIdentifiers.credentialId(key.publicKey) }
    package var deviceId: String { KeyIdentifiers.deviceId(identity.publicKey, localUser: localUser) }

    /// The attestation statement of ``key`` (or of `statementKey`) and `signer`'s signature
    /// over it (the identity key unless another is given).
    package func attestation(signer: P256.Signing.PrivateKey? = nil,
                             statementKey: P256.Signing.PublicKey? = nil) -> (statement: Data, signature: Data) {
        let statement = AttestationFormat.Statement(
            format: AttestationFormat.format, publicKey: (statementKey ?? key.publicKey).x963Representation.base64EncodedString(),
            user: localUser, label: "login", accessControl: accessControl, createdAt: Int64(Date().timeIntervalSince1970 * 1000),
            serviceVersion: "test", protection: protection)
        let bytes = (try? statement.encoded()) ?? Data()
        return (bytes, (try? (signer ?? identity).signature(for: bytes).derRepresentation) ?? Data())
    }

    /// The binding request of ``key`` with its attestation (see ``attestation(signer:statementKey:)``).
    package func bindRequest(name: String = "software device", signer: P256.Signing.PrivateKey? = nil,
                             statementKey: P256.Signing.PublicKey? = nil, deviceId: String? = nil,
                             bindingCode: String? = nil, requestApproval: Bool? = nil) -> BindRequest {
        let (bytes, signature) = attestation(signer: signer, statementKey: statementKey)
        return BindRequest(deviceName: name, publicKey: key.publicKey.pemRepresentation, identityKey: identity.publicKey.pemRepresentation,
                           attestationStatement: bytes.base64EncodedString(), attestationSignature: signature.base64EncodedString(),
                           deviceId: deviceId, bindingCode: bindingCode, requestApproval: requestApproval)
    }

    /// The signed answer to `challenge` over `payload` with `counter`.
    package func assertion(_ challenge: Challenge, payload: AssertionPayload, counter: UInt64) -> AssertionRequest {
        let message = SignatureFormat.message(counter: counter, data: payload.bytes)
        let signature = (try? key.signature(for: message).derRepresentation) ?? Data()
        return AssertionRequest(challengeId: challenge.challengeId, credentialId: credentialId, counter: counter,
                                signature: signature.base64EncodedString())
    }

    /// A login assertion for `challenge` at `origin`.
    package func login(_ challenge: Challenge, origin: String, counter: UInt64) -> AssertionRequest {
        assertion(challenge, payload: .login(origin: origin, challenge: challenge.challenge, credentialId: credentialId), counter: counter)
    }

    /// A payment assertion over `payment` as given (a test changes it to prove it is refused).
    package func pay(_ payment: Payment, origin: String, counter: UInt64) -> AssertionRequest? {
        guard let challenge = payment.challenge else { return nil }
        let signed = AssertionPayload.Payment(id: payment.paymentId, amount: payment.amount, currency: payment.currency, payee: payment.payee)
        return assertion(challenge, payload: .payment(signed, origin: origin, challenge: challenge.challenge, credentialId: credentialId),
                         counter: counter)
    }

    /// This device's approval of the new device `approval` describes (a test changes it to prove it is refused).
    package func approve(_ approval: ApprovalChallenge, origin: String, counter: UInt64) -> AssertionRequest {
        assertion(approval.challenge, payload: .approval(approval.approval, origin: origin, challenge: approval.challenge.challenge,
                                                         credentialId: credentialId), counter: counter)
    }

    /// This device's answer to a kiosk challenge, as fpbridged's identify-and-prove makes it:
    /// the kiosk-login payload at `origin` (or, with `purpose` `kioskPinLogin`, the PIN pad's
    /// payload), and the key's attestation (`signer` and `statementKey` change it to prove it is refused).
    package func kioskLogin(_ challenge: KioskChallenge, origin: String, counter: UInt64, signer: P256.Signing.PrivateKey? = nil,
                            statementKey: P256.Signing.PublicKey? = nil,
                            purpose: AssertionPayload.Purpose = .kioskLogin) -> KioskLoginRequest {
        let payload = purpose == .kioskPinLogin
            ? AssertionPayload.kioskPinLogin(origin: origin, challenge: challenge.challenge, credentialId: credentialId)
            : AssertionPayload.kioskLogin(origin: origin, challenge: challenge.challenge, credentialId: credentialId)
        let signature = (try? key.signature(for: SignatureFormat.message(counter: counter, data: payload.bytes)).derRepresentation) ?? Data()
        let (statement, attestation) = attestation(signer: signer, statementKey: statementKey)
        return KioskLoginRequest(challengeId: challenge.challengeId, credentialId: credentialId, counter: counter,
                                 signature: signature.base64EncodedString(), attestationStatement: statement.base64EncodedString(),
                                 attestationSignature: attestation.base64EncodedString())
    }
}
