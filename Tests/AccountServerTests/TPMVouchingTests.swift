import Crypto
import FPAccountAPI
import FPKeyFormats
import Foundation
import Testing
import TestSupport

/// Issue 28: the device identity key in a TPM 2.0 (`fpbridged --tpm`) and a server that trusts
/// the TPM's maker (`fpbridge-server --tpm-ca`). A real swtpm, manufactured with an EK
/// certificate from a CA the test makes, a real fpbridged and the real server: with
/// `--tpm-vouches` a second device is bound on the TPM's word alone (credential activation),
/// and on nothing less; without it the TPM's word is checked and is not enough.
@Suite(.enabled(if: SoftwareTPM.isInstalled || SharedData.isCI, "swtpm is not installed (apt-get install swtpm swtpm-tools)"))
struct TPMVouchingTests {
    static let serverOptions = ["--accept-access-control", "biometryCurrentSet", "--accept-access-control", "devicePasscode"]

    /// The server's credential for `evidence`, asked for in the harness's password session.
    static func credential(for evidence: TPMEvidence, from harness: Harness) async throws -> TPMCredentialChallenge {
        try harness.decode(try await harness.server.request("POST", "/v1/devices/tpm-credentials", json: TPMCredentialRequest(tpm: evidence),
                                                            token: harness.session), as: TPMCredentialChallenge.self)
    }

    @Test(arguments: Storage.allCases)
    func aBindingAttestedByATPMWhoseMakerTheServerTrustsIsAccepted(storage: Storage) async throws {
        let tpm = try await SoftwareTPM()
        let device = try await TPMDevice(tpm: tpm)
        let attestation = try await device.attestation()
        let evidence = try #require(attestation.tpm, "fpbridged --tpm gives no TPM evidence")

        // A server that checks TPMs against the CA but does not let them vouch alone (the
        // default: a maker's CA certifies the password thief's PC too): the genuine proof is
        // accepted as a proof and the binding still needs an approval or a code.
        let cautious = try await Harness.start(storage, arguments: Self.serverOptions + ["--tpm-ca", tpm.caFile])
        let checked = try await Self.credential(for: evidence, from: cautious)
        let checkedSecret = try #require(try await device.activate(checked))
        let notAlone = try await cautious.server.request("POST", "/v1/devices", json: attestation.bindRequest(tpm: TPMProof(
            evidence: evidence, secret: checkedSecret, expiresAt: checked.expiresAt)), token: cautious.session)
        #expect(notAlone.status == 403 && notAlone.errorCode == "deviceNotVouched", "\(String(decoding: notAlone.body, as: UTF8.self))")
        // A proof that does not hold is still refused for what it is, never passed over.
        let wrong = try await cautious.server.request("POST", "/v1/devices", json: attestation.bindRequest(tpm: TPMProof(
            evidence: evidence, secret: Data(count: 32).base64EncodedString(), expiresAt: checked.expiresAt)), token: cautious.session)
        #expect(wrong.status == 403 && wrong.errorCode == "tpmAttestationRejected")

        let harness = try await Harness.start(storage, arguments: Self.serverOptions + ["--tpm-ca", tpm.caFile, "--tpm-vouches"])

        // Without the proof, the password alone does not bind a second device.
        let unvouched = try await harness.server.request("POST", "/v1/devices", json: attestation.bindRequest(tpm: nil), token: harness.session)
        #expect(unvouched.status == 403 && unvouched.errorCode == "deviceNotVouched")

        let credential = try await harness.server.request("POST", "/v1/devices/tpm-credentials", json: TPMCredentialRequest(tpm: evidence),
                                                          token: harness.session)
        #expect(credential.status == 201, "\(String(decoding: credential.body, as: UTF8.self))")
        let challenge = try harness.decode(credential, as: TPMCredentialChallenge.self)
        let secret = try #require(try await device.activate(challenge), "fpbridged did not activate the credential")
        let bound = try await harness.server.request("POST", "/v1/devices", json: attestation.bindRequest(tpm: TPMProof(
            evidence: evidence, secret: secret, expiresAt: challenge.expiresAt)), token: harness.session)
        #expect(bound.status == 201, "\(String(decoding: bound.body, as: UTF8.self))")
        #expect(try await harness.audit().filter { $0.event == "bind" }.map(\.outcome) == ["ok", "deviceNotVouched", "ok"])

        // The identity key's private part is nowhere in the state directory: only the TPM's
        // wrapped blob is, in a 0600 file, and no 32 bytes of any file are the key's scalar.
        let identity = try P256.Signing.PublicKey(pemRepresentation: attestation.identityKeyPem)
        let wrapped = device.service.stateDirectory + "/service/tpm-identity.json"
        #expect(try FileManager.default.attributesOfItem(atPath: wrapped)[.posixPermissions] as? Int == 0o600)
        #expect(!FileManager.default.fileExists(atPath: device.service.stateDirectory + "/service/identity.json"))
        #expect(try Self.holdsPrivateKey(of: identity, under: device.service.stateDirectory) == false)
    }

    @Test(arguments: Storage.allCases)
    func aTPMWhoseMakerTheServerDoesNotTrustIsRefused(storage: Storage) async throws {
        let tpm = try await SoftwareTPM()
        let device = try await TPMDevice(tpm: tpm)
        let elsewhere = TemporaryDirectory()
        let harness = try await Harness.start(storage, arguments: Self.serverOptions + ["--tpm-ca", try SoftwareTPM.strangerCA(in: elsewhere)])
        let attestation = try await device.attestation()
        let evidence = try #require(attestation.tpm)
        let credential = try await harness.server.request("POST", "/v1/devices/tpm-credentials", json: TPMCredentialRequest(tpm: evidence),
                                                          token: harness.session)
        #expect(credential.status == 403 && credential.errorCode == "tpmAttestationRejected")
        let refused = try await harness.server.request("POST", "/v1/devices", json: attestation.bindRequest(tpm: TPMProof(
            evidence: evidence, secret: Data(count: 32).base64EncodedString(), expiresAt: Int64(Date().timeIntervalSince1970 * 1000) + 60_000)),
            token: harness.session)
        #expect(refused.status == 403 && refused.errorCode == "tpmAttestationRejected", "\(String(decoding: refused.body, as: UTF8.self))")

        // A server that trusts no TPM maker refuses a TPM's word as well, however good.
        let untrusting = try await Harness.start(storage, arguments: Self.serverOptions)
        let none = try await untrusting.server.request("POST", "/v1/devices/tpm-credentials", json: TPMCredentialRequest(tpm: evidence),
                                                       token: untrusting.session)
        #expect(none.status == 403 && none.errorCode == "tpmAttestationRejected")
    }

    @Test(arguments: Storage.allCases)
    func aSoftwareIdentityClaimingATPMIsRefused(storage: Storage) async throws {
        let tpm = try await SoftwareTPM()
        let real = try await TPMDevice(tpm: tpm)
        let software = try await TPMDevice(tpm: nil)
        let harness = try await Harness.start(storage, arguments: Self.serverOptions + ["--tpm-ca", tpm.caFile])
        let genuine = try #require(try await real.attestation().tpm)
        let forged = try await software.attestation()
        #expect(forged.tpm == nil)

        // The real TPM's endorsement, with a public area claiming the software identity key is
        // a restricted key of that TPM: the server cannot tell yet, and wraps its secret to the
        // TPM, which the software device cannot open.
        let claim = TPMEvidence(endorsementCertificate: genuine.endorsementCertificate, endorsementKey: genuine.endorsementKey,
                                identityKey: Data(TPMPublicArea.identity(try P256.Signing.PublicKey(pemRepresentation: forged.identityKeyPem))
                                    .marshalled).base64EncodedString())
        let credential = try await Self.credential(for: claim, from: harness)
        #expect(try await software.activate(credential) == nil, "fpbridged without --tpm activated a credential")
        // The real TPM will not release it either: no key of that name is loaded in it.
        #expect(try await real.activate(credential) == nil)
        let guessed = try await harness.server.request("POST", "/v1/devices", json: forged.bindRequest(tpm: TPMProof(
            evidence: claim, secret: Data(SHA256.hash(data: Data("guess".utf8))).base64EncodedString(), expiresAt: credential.expiresAt)),
            token: harness.session)
        #expect(guessed.status == 403 && guessed.errorCode == "tpmAttestationRejected", "\(String(decoding: guessed.body, as: UTF8.self))")

        // The genuine TPM's proof, presented with the software identity's attestation: not the key that signed it.
        let genuineCredential = try await Self.credential(for: genuine, from: harness)
        let secret = try #require(try await real.activate(genuineCredential))
        let borrowed = try await harness.server.request("POST", "/v1/devices", json: forged.bindRequest(tpm: TPMProof(
            evidence: genuine, secret: secret, expiresAt: genuineCredential.expiresAt)), token: harness.session)
        #expect(borrowed.status == 403 && borrowed.errorCode == "tpmAttestationRejected", "\(String(decoding: borrowed.body, as: UTF8.self))")
        // An expiry moved later, with the real secret: the secret no longer matches.
        let stretched = try await harness.server.request("POST", "/v1/devices", json: try real.attestation().bindRequest(tpm: TPMProof(
            evidence: genuine, secret: secret, expiresAt: genuineCredential.expiresAt + 1)), token: harness.session)
        #expect(stretched.status == 403 && stretched.errorCode == "tpmAttestationRejected")
        #expect(try await harness.audit().filter { $0.event == "bind" }.map(\.outcome)
                == ["ok", "tpmAttestationRejected", "tpmAttestationRejected", "tpmAttestationRejected"])
    }

    @Test func evidenceThatDoesNotHoldTogetherGetsNoCredential() async throws {
        let tpm = try await SoftwareTPM()
        let device = try await TPMDevice(tpm: tpm)
        let harness = try await Harness.start(.sqlite, arguments: Self.serverOptions + ["--tpm-ca", tpm.caFile])
        let genuine = try #require(try await device.attestation().tpm)
        let endorsement = try TPMPublicArea(marshalled: [UInt8](try #require(Data(base64Encoded: genuine.endorsementKey))))
        let identity = try TPMPublicArea(marshalled: [UInt8](try #require(Data(base64Encoded: genuine.identityKey))))
        // A key of the attacker's own on the endorsement key's curve: a valid point, so only the
        // certificate check stands between it and a credential the attacker opens in software.
        let ownPoint = Array(endorsement.x.count == 48 ? P384.KeyAgreement.PrivateKey().publicKey.x963Representation
                                                       : P256.KeyAgreement.PrivateKey().publicKey.x963Representation).dropFirst()
        let movedEndorsement = TPMPublicArea(nameAlgorithm: endorsement.nameAlgorithm, attributes: endorsement.attributes,
                                             authPolicy: endorsement.authPolicy, symmetric: endorsement.symmetric, scheme: endorsement.scheme,
                                             curve: endorsement.curve, x: Array(ownPoint.prefix(endorsement.x.count)),
                                             y: Array(ownPoint.suffix(endorsement.x.count)))
        // The same point, but a key that could leave its TPM (no fixedTPM), or one that signs anything (not restricted).
        let exportable = TPMPublicArea(nameAlgorithm: identity.nameAlgorithm, attributes: identity.attributes.subtracting(.fixedTPM),
                                       symmetric: nil, scheme: identity.scheme, curve: identity.curve, x: identity.x, y: identity.y)
        let unrestricted = TPMPublicArea(nameAlgorithm: identity.nameAlgorithm, attributes: identity.attributes.subtracting(.restricted),
                                         symmetric: nil, scheme: identity.scheme, curve: identity.curve, x: identity.x, y: identity.y)
        let certificate = [UInt8](try #require(Data(base64Encoded: genuine.endorsementCertificate)))
        var tampered = certificate
        tampered[tampered.count - 10] ^= 1
        let cases: [(String, TPMEvidence)] = [
            ("an endorsement key of the attacker's own, which its certificate does not certify",
             TPMEvidence(endorsementCertificate: genuine.endorsementCertificate, endorsementKey: Data(movedEndorsement.marshalled).base64EncodedString(),
                         identityKey: genuine.identityKey)),
            ("an exportable identity key", TPMEvidence(endorsementCertificate: genuine.endorsementCertificate, endorsementKey: genuine.endorsementKey,
                                                       identityKey: Data(exportable.marshalled).base64EncodedString())),
            ("an unrestricted identity key", TPMEvidence(endorsementCertificate: genuine.endorsementCertificate, endorsementKey: genuine.endorsementKey,
                                                         identityKey: Data(unrestricted.marshalled).base64EncodedString())),
            ("a certificate whose signature does not verify", TPMEvidence(endorsementCertificate: Data(tampered).base64EncodedString(),
                                                                          endorsementKey: genuine.endorsementKey, identityKey: genuine.identityKey)),
            ("an identity key with bytes after its end", TPMEvidence(endorsementCertificate: genuine.endorsementCertificate,
                                                                     endorsementKey: genuine.endorsementKey,
                                                                     identityKey: Data(identity.marshalled + [0]).base64EncodedString())),
        ]
        for (what, evidence) in cases {
            let answer = try await harness.server.request("POST", "/v1/devices/tpm-credentials", json: TPMCredentialRequest(tpm: evidence),
                                                          token: harness.session)
            #expect(answer.status == 403 && answer.errorCode == "tpmAttestationRejected", "\(what): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let garbage = try await harness.server.request("POST", "/v1/devices/tpm-credentials", json: TPMCredentialRequest(tpm: TPMEvidence(
            endorsementCertificate: "not base64!", endorsementKey: genuine.endorsementKey, identityKey: genuine.identityKey)), token: harness.session)
        #expect(garbage.status == 400 && garbage.errorCode == "invalidRequest")
        // The area fpbridged gave parses back to the same bytes.
        #expect(Data(identity.marshalled).base64EncodedString() == genuine.identityKey)
    }

    /// Whether any 32 bytes of any file under `directory` (raw, or base64 inside JSON) are the private scalar of `key`.
    static func holdsPrivateKey(of key: P256.Signing.PublicKey, under directory: String) throws -> Bool {
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        for file in files {
            guard let data = FileManager.default.contents(atPath: directory + "/" + file) else { continue }
            var blobs = [data]
            if let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                blobs += json.values.compactMap { ($0 as? String).flatMap { Data(base64Encoded: $0) } }
            }
            for blob in blobs where blob.count >= 32 {
                let bytes = [UInt8](blob)
                for start in 0...(bytes.count - 32) {
                    if let candidate = try? P256.Signing.PrivateKey(rawRepresentation: bytes[start..<start + 32]),
                       candidate.publicKey.rawRepresentation == key.rawRepresentation { return true }
                }
            }
        }
        return false
    }
}

/// A real fpbridged (with `--tpm` when given a TPM) holding a login key made with the passcode.
struct TPMDevice {
    let service: ServiceProcess

    init(tpm: SoftwareTPM?) async throws {
        service = try await ServiceProcess(arguments: tpm.map { ["--tpm", $0.tcti] } ?? [])
        let passcode = try await Fpbridge.run(["--json", "passcode", "set", "--passcode-stdin"], environment: service.clientEnvironment, input: "2468\n")
        #expect(passcode.status == 0, "\(passcode.stderr)")
        let key = try await Fpbridge.run(["--json", "key", "create", "--label", "login", "--access-control", "device-passcode"],
                                         environment: service.clientEnvironment)
        #expect(key.status == 0, "\(key.stdout) \(key.stderr) \(service.output)")
    }

    /// The attestation as `GET /v1/keys/attestation` gives it.
    struct Attestation {
        let publicKeyPem: String
        let identityKeyPem: String
        let statement: String
        let signature: String
        let tpm: TPMEvidence?

        func bindRequest(tpm: TPMProof?) -> BindRequest {
            BindRequest(deviceName: "desk", publicKey: publicKeyPem, identityKey: identityKeyPem, attestationStatement: statement,
                        attestationSignature: signature, tpm: tpm)
        }
    }

    func attestation() async throws -> Attestation {
        let answer = try await service.request("GET", "/v1/keys/attestation?label=login")
        #expect(answer.status == 200, "\(answer.body)")
        let json = answer.json
        let key = try #require(json["key"] as? [String: Any])
        var evidence: TPMEvidence?
        if let tpm = json["tpm"] as? [String: String], let certificate = tpm["endorsementCertificate"], let endorsement = tpm["endorsementKey"],
           let identity = tpm["identityKey"] {
            evidence = TPMEvidence(endorsementCertificate: certificate, endorsementKey: endorsement, identityKey: identity)
        }
        return Attestation(publicKeyPem: try #require(key["publicKeyPem"] as? String), identityKeyPem: try #require(json["identityKeyPem"] as? String),
                           statement: try #require(key["statementBase64"] as? String), signature: try #require(key["signatureBase64"] as? String),
                           tpm: evidence)
    }

    /// The secret fpbridged's TPM released from `challenge`; nil when it refused.
    func activate(_ challenge: TPMCredentialChallenge) async throws -> String? {
        let body = String(decoding: try JSONEncoder().encode(["credential": challenge.credential, "encryptedSecret": challenge.encryptedSecret]),
                          as: UTF8.self)
        let answer = try await service.request("POST", "/v1/identity/activate", body: body)
        return answer.status == 200 ? answer.json["secret"] as? String : nil
    }
}
