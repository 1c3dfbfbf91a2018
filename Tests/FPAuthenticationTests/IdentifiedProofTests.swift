import Crypto
import FPAuthentication
import FPCore
import FPKeyFormats
import FPReaders
import FPStore
import Foundation
import Testing

/// Identify-and-prove (issue 25, "In fpbridged"): who is at the reader, and their login key
/// signs a server's kiosk challenge in the same touch, under every rule of identification and of keys.
@Suite struct IdentifiedProofTests {
    let harness = EngineHarness()
    let origin = "https://bank.example"
    let challenge = KeyIdentifiers.base64URL(Data(repeating: 7, count: 32))

    func request(origin: String? = nil) throws -> ProofRequest {
        try ProofRequest(purpose: .kioskLogin, origin: origin ?? self.origin, challenge: challenge)
    }

    /// Makes `user`'s login key for ``origin`` as `fpbridge account bind` does.
    @discardableResult
    func makeKey(_ user: String, accessControl: KeyAccessControl = .biometryCurrentSet) async throws -> KeyDescription {
        try await harness.context("", user: user, reader: false).keys(protection: .service)
            .create(label: KeyIdentifiers.loginKeyLabel(origin: origin, username: user), accessControl: accessControl)
    }

    func key(_ user: String) async throws -> KeyDescription {
        try await harness.context("", user: user, reader: false).keys(protection: .service)
            .describe(label: KeyIdentifiers.loginKeyLabel(origin: origin, username: user))
    }

    /// The kiosk's own account touches nothing of its own: the script is one touch.
    func prove(_ script: String, attempts: Int? = nil) async throws -> Result<IdentifiedProof, AuthError> {
        let context = try await harness.context(script, user: "kiosk")
        let request = try request()
        do {
            return .success(try await context.identifyAndProve(request, reason: "Log in", protection: .service,
                                                              options: BiometricOptions(maxFailedMatches: attempts)))
        } catch {
            return .failure(error)
        }
    }

    @Test func theIdentifiedUsersKeySignsTheKioskPayloadInOneTouch() async throws {
        try await harness.enroll(id: "alice-1", user: "alice")
        try await harness.enroll(id: "bob-1", user: "bob")
        let alice = try await makeKey("alice")
        let bob = try await makeKey("bob")
        // One scan line: a second scan would find the script empty.
        let proof = try await prove("scan bob-1").get()
        #expect(proof.success.user == "bob" && proof.success.finger == .rightIndex && proof.success.method == .fingerprint)
        let credential = KeyIdentifiers.credentialId(try P256.Signing.PublicKey(pemRepresentation: bob.publicKeyPEM))
        #expect(proof.credentialId == credential)
        #expect(proof.payload == .kioskLogin(origin: origin, challenge: challenge, credentialId: credential))
        #expect(proof.signature.counter == 1 && proof.key.counter == 1 && proof.signature.user == "bob")
        // A server checks it with nothing but the public key, the payload it expects and the counter.
        let payload = AssertionPayload.kioskLogin(origin: origin, challenge: challenge, credentialId: credential)
        #expect(KeySignature.verify(signature: proof.signature.signature, counter: 1, data: payload.bytes, publicKeyPEM: bob.publicKeyPEM))
        #expect(!KeySignature.verify(signature: proof.signature.signature, counter: 1,
                                     data: AssertionPayload.login(origin: origin, challenge: challenge, credentialId: credential).bytes,
                                     publicKeyPEM: bob.publicKeyPEM), "a kiosk proof passed for a device login")
        #expect(!KeySignature.verify(signature: proof.signature.signature, counter: 1, data: payload.bytes, publicKeyPEM: alice.publicKeyPEM))
        // The attestation is the device identity's, about this very key.
        let identity = try await harness.context("", reader: false).keys(protection: .service).identity()
        #expect(KeyAttestation.verify(statement: proof.key.attestation.statement, signature: proof.key.attestation.signature,
                                      identityKeyPEM: identity))
        #expect(proof.key.attestation.contents?.publicKey
                == (try P256.Signing.PublicKey(pemRepresentation: bob.publicKeyPEM)).x963Representation.base64EncodedString())
        // Written before it was returned; alice's key untouched.
        let bobNow = try await key("bob"), aliceNow = try await key("alice")
        #expect(bobNow.counter == 1 && aliceNow.counter == 0)
        #expect(try await prove("scan bob-1").get().signature.counter == 2)
    }

    @Test func failuresCountPerReaderLockItAndTakeNoCounterValue() async throws {
        try await harness.enroll(id: "alice-1", user: "alice")
        try await makeKey("alice")
        #expect(try await prove("scan x\nscan y\nscan z").failure?.code == .authenticationFailed)
        #expect(harness.readerCounter().biometricFailures == 3 && harness.counter("alice").biometricFailures == 0)
        #expect(try await prove("scan v\nscan w").failure?.code == .biometryLockout)
        // Timed identification lockout: even alice's finger is refused, and nothing is signed.
        let locked = try #require(try await prove("scan alice-1").failure)
        #expect(locked.code == .biometryLockout && (locked.retryAfter ?? 0) > 0)
        #expect(try await key("alice").counter == 0)
        harness.advance(by: 31)
        #expect(try await prove("scan alice-1").get().signature.counter == 1)
        #expect(harness.readerCounter().biometricFailures == 0)
    }

    @Test func aNewFingerInvalidatesTheKeyAndNothingIsSigned() async throws {
        try await harness.enroll(id: "alice-1", user: "alice")
        try await makeKey("alice")
        try await harness.enroll(.leftIndex, id: "alice-2", user: "alice")
        #expect(try await prove("scan alice-1").failure?.code == .keyInvalidated)
        let now = try await key("alice")
        #expect(now.invalidated && now.counter == 0)
    }

    @Test func noKeyAnotherAccessControlOrADamagedFileSignsNothing() async throws {
        try await harness.enroll(id: "alice-1", user: "alice")
        let missing = try #require(try await prove("scan alice-1").failure)
        #expect(missing.code == .notFound && missing.message.contains("alice was identified"))
        // A key of that label the finger alone does not release for this use.
        try await makeKey("alice", accessControl: .biometryAny)
        #expect(try await prove("scan alice-1").failure?.code == .notFound)
        #expect(try await key("alice").counter == 0)
        try await harness.context("", user: "alice", reader: false).keys(protection: .service)
            .delete(label: KeyIdentifiers.loginKeyLabel(origin: origin, username: "alice"))
        try await makeKey("alice")
        let file = harness.state.file("keys", "alice", KeyIdentifiers.loginKeyLabel(origin: origin, username: "alice") + ".json")
        let original = try #require(FileManager.default.contents(atPath: file))
        try original.prefix(60).write(to: URL(fileURLWithPath: file))
        let damaged = try #require(try await prove("scan alice-1").failure)
        #expect(damaged.code == .stateDamaged && damaged.message.contains(file))
        #expect(FileManager.default.contents(atPath: file) == original.prefix(60))
    }

    /// The PIN pad's proof: `user`'s PIN typed at a kiosk (uid 990) with a kiosk PIN challenge.
    func provePIN(_ user: String, _ pin: String, pad: PinPad, purpose: AssertionPayload.Purpose = .kioskPinLogin)
        async throws -> Result<IdentifiedProof, AuthError> {
        let context = try await harness.context("", user: user, reader: false)
        let request = try ProofRequest(purpose: purpose, origin: origin, challenge: challenge)
        do {
            return .success(try await pad.prove(Passcode(pin), request: request, context: context, kiosk: 990, protection: .service))
        } catch {
            return .failure(error)
        }
    }

    @Test func aRightPINSignsTheKioskPINPayloadWhichNeverPassesForAFinger() async throws {
        try await harness.enroll(id: "alice-1", user: "alice")
        let alice = try await makeKey("alice")
        let pad = PinPad(answerFloor: .zero)
        let proof = try await provePIN("alice", "2468", pad: pad).get()
        let credential = KeyIdentifiers.credentialId(try P256.Signing.PublicKey(pemRepresentation: alice.publicKeyPEM))
        #expect(proof.success.user == "alice" && proof.success.method == .passcode && proof.credentialId == credential)
        #expect(proof.payload == .kioskPinLogin(origin: origin, challenge: challenge, credentialId: credential))
        #expect(proof.signature.counter == 1 && proof.signature.method == .passcode)
        let pinBytes = AssertionPayload.kioskPinLogin(origin: origin, challenge: challenge, credentialId: credential).bytes
        #expect(KeySignature.verify(signature: proof.signature.signature, counter: 1, data: pinBytes, publicKeyPEM: alice.publicKeyPEM))
        // The purpose is inside the signed bytes: a PIN proof is no finger's, and no device login.
        for other in [AssertionPayload.kioskLogin(origin: origin, challenge: challenge, credentialId: credential),
                      AssertionPayload.login(origin: origin, challenge: challenge, credentialId: credential)] {
            #expect(!KeySignature.verify(signature: proof.signature.signature, counter: 1, data: other.bytes,
                                         publicKeyPEM: alice.publicKeyPEM), "a PIN proof passed for \(other.purpose)")
        }
        // And a finger's proof never passes for a PIN's.
        let finger = try await prove("scan alice-1").get()
        #expect(finger.payload.purpose == .kioskLogin && finger.signature.counter == 2)
        #expect(!KeySignature.verify(signature: finger.signature.signature, counter: 2,
                                     data: AssertionPayload.kioskPinLogin(origin: origin, challenge: challenge, credentialId: credential).bytes,
                                     publicKeyPEM: alice.publicKeyPEM))
    }

    @Test func aWrongPINSignsNothingAndCountsAsWithoutAProof() async throws {
        try await harness.enroll(id: "alice-1", user: "alice")
        try await makeKey("alice")
        let pad = PinPad(answerFloor: .zero)
        #expect(try await provePIN("alice", "1111", pad: pad).failure?.code == .authenticationFailed)
        #expect(harness.counter("alice").passcodeFailures == 1)
        #expect(try await key("alice").counter == 0)
        // A name with no passcode: the same answer, nothing signed for anyone.
        let zed = try #require(try await provePIN("zed", "2468", pad: pad).failure)
        #expect(zed.code == .authenticationFailed && zed.message == "wrong user or PIN")
        // The user's own limit: six wrong in a row lock the passcode, and the right PIN then signs nothing.
        for _ in 0..<5 { _ = try await provePIN("alice", "1111", pad: PinPad(answerFloor: .zero)) }
        #expect(try await provePIN("alice", "2468", pad: PinPad(answerFloor: .zero)).failure?.code == .passcodeLockout)
        #expect(try await key("alice").counter == 0)
        // A finger's purpose is not the PIN pad's to sign, whatever the PIN.
        harness.advance(by: 61)
        #expect(try await provePIN("alice", "2468", pad: pad, purpose: .kioskLogin).failure?.code == .invalidInput)
        #expect(try await key("alice").counter == 0)
        // Right, with no login key for that server: said so, nothing signed.
        try await harness.setPasscode(user: "bob")
        let keyless = try #require(try await provePIN("bob", "2468", pad: pad).failure)
        #expect(keyless.code == .notFound && keyless.message.contains("bob's PIN is right"), "\(keyless.message)")
    }

    @Test func identifyAndProveNeverSignsThePINPadsPurpose() async throws {
        try await harness.enroll(id: "alice-1", user: "alice")
        try await makeKey("alice")
        let context = try await harness.context("scan alice-1", user: "kiosk")
        let request = try ProofRequest(purpose: .kioskPinLogin, origin: origin, challenge: challenge)
        await #expect(throws: AuthError.self) { try await context.identifyAndProve(request, reason: "Log in", protection: .service) }
        #expect(try await key("alice").counter == 0)
    }

    @Test func onlyAKioskLoginForAnOriginAndAChallengeIsAccepted() throws {
        func refused(_ body: () throws -> ProofRequest) -> AuthErrorCode? {
            do { _ = try body(); return nil } catch { return (error as? AuthError)?.code }
        }
        #expect(refused { try ProofRequest(purpose: .payment, origin: origin, challenge: challenge) } == .invalidInput)
        #expect(refused { try ProofRequest(purpose: .login, origin: origin, challenge: challenge) } == .invalidInput)
        #expect(refused { try ProofRequest(purpose: .kioskLogin, origin: "bank.example", challenge: challenge) } == .invalidInput)
        #expect(refused { try ProofRequest(purpose: .kioskLogin, origin: "https://bank.example\n", challenge: challenge) } == .invalidInput)
        #expect(refused { try ProofRequest(purpose: .kioskLogin, origin: origin, challenge: "not base64url!") } == .invalidInput)
        #expect(refused { try ProofRequest(purpose: .kioskLogin, origin: origin, challenge: String(repeating: "A", count: 300)) } == .invalidInput)
        #expect(refused { try ProofRequest(purpose: .kioskLogin, origin: origin, challenge: challenge) } == nil)
        #expect(refused { try ProofRequest(purpose: .kioskPinLogin, origin: origin, challenge: challenge) } == nil)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
