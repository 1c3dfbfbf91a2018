import Crypto
import FPAuthentication
import FPCore
import FPReaders
import FPStore
import Foundation
import Testing

/// Keys released by a match: a signature only after the evaluation the key's
/// access control demands, through the same counters and lockouts.
@Suite struct KeyVaultTests {
    let harness = EngineHarness()
    let challenge = Data("challenge-42".utf8)

    func vault(_ script: String = "", reader: Bool = true) async throws -> KeyVault {
        try await harness.context(script, reader: reader).keys(protection: .development)
    }

    /// Signs in a new context on a fake reader playing `script`, with `passcodes` for any passcode prompt.
    func sign(_ script: String, label: String = "login", passcodes: [String] = []) async throws -> Result<KeySignature, AuthError> {
        let vault = try await vault(script)
        do {
            return .success(try await vault.sign(label: label, data: challenge, reason: "Sign in",
                                                 prompt: ListedPasscodes(passcodes.map { Passcode($0) })))
        } catch {
            return .failure(error)
        }
    }

    func counter(_ label: String = "login") async throws -> UInt64 {
        try await vault().describe(label: label).counter
    }

    func keyFile(_ label: String = "login") -> String { harness.state.file("keys", "alice", label + ".json") }

    /// Issue 27 §1: an ordinary user filled fpbridged's disk with keys (509 of them). A quota
    /// stops that before the disk does, and says so.
    @Test func aUserHoldsAtMostTheKeyQuota() async throws {
        try await harness.setPasscode()
        let vault = try await vault(reader: false)
        for index in 0..<KeyVault.maximumKeysPerUser {
            _ = try vault.create(label: "k\(index)", accessControl: .devicePasscode)
        }
        #expect {
            _ = try vault.create(label: "one-more", accessControl: .devicePasscode)
        } throws: { error in
            (error as? AuthError)?.code == .invalidInput && (error as? AuthError)?.message.contains("\(KeyVault.maximumKeysPerUser) keys") == true
        }
        #expect(!FileManager.default.fileExists(atPath: keyFile("one-more")))
        // Another user is not held back by alice's keys, and a freed place can be used again.
        try await harness.setPasscode(user: "bob")
        _ = try await harness.context("", user: "bob", reader: false).keys(protection: .development)
            .create(label: "k0", accessControl: .devicePasscode)
        try vault.delete(label: "k0")
        _ = try vault.create(label: "one-more", accessControl: .devicePasscode)
    }

    @Test func biometryCurrentSetSignsAfterAMatchOverTheDocumentedMessage() async throws {
        try await harness.enroll()
        let key = try await vault().create(label: "login", accessControl: .biometryCurrentSet)
        #expect(key.counter == 0 && !key.invalidated && key.user == "alice" && key.accessControl == .biometryCurrentSet)
        let signed = try await sign("scan alice-1").get()
        #expect(signed.counter == 1 && signed.method == .fingerprint)
        // "fpbridge-signature-v1" NUL ‖ counter (8 bytes, big-endian) ‖ data, checked here without the library's helper.
        let expected = Data("fpbridge-signature-v1".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1] + challenge
        #expect(signed.message == expected)
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signed.signature), for: expected))
        #expect(KeySignature.verify(signature: signed.signature, counter: 1, data: challenge, publicKeyPEM: key.publicKeyPEM))
        #expect(!KeySignature.verify(signature: signed.signature, counter: 2, data: challenge, publicKeyPEM: key.publicKeyPEM))
        // The JWK names the same point.
        func base64URL(_ text: String?) throws -> Data {
            var text = try #require(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            text += String(repeating: "=", count: (4 - text.count % 4) % 4)
            return try #require(Data(base64Encoded: text))
        }
        #expect(key.publicKeyJWK["kty"] == "EC" && key.publicKeyJWK["crv"] == "P-256")
        let point = Data([4]) + (try base64URL(key.publicKeyJWK["x"])) + (try base64URL(key.publicKeyJWK["y"]))
        #expect(point == publicKey.x963Representation)
        #expect(try await counter() == 1)
    }

    @Test func noMatchGivesNoSignatureAndTakesNoCounterValue() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryCurrentSet)
        #expect(try await sign("scan x\nscan y\nscan z\nscan alice-1").failure?.code == .authenticationFailed)
        #expect(try await counter() == 0)
        // The failures counted as any evaluation's do.
        #expect(harness.counter().biometricFailures == 3)
        #expect(try await sign("cancel").failure?.code == .userCancel)
        #expect(try await counter() == 0)
        #expect(try await sign("scan alice-1").get().counter == 1)
    }

    @Test func aLockedOutUserGetsBiometryLockoutAndNoSignature() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryAny)
        #expect(try await harness.evaluate(.biometrics, "scan x\nscan y\nscan z") == .authenticationFailed)
        #expect(try await sign("scan x\nscan y").failure?.code == .biometryLockout)
        // Locked: even the right finger is refused, and no counter value is taken.
        #expect(try await sign("scan alice-1").failure?.code == .biometryLockout)
        #expect(try await counter() == 0)
    }

    @Test func anotherFingerInvalidatesABiometryCurrentSetKeyForGood() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryCurrentSet)
        _ = try await vault().create(label: "untouched", accessControl: .biometryCurrentSet)
        try await harness.enroll(.leftIndex, id: "alice-2")
        #expect(try await sign("scan alice-1").failure?.code == .keyInvalidated)
        #expect(try await vault().describe(label: "login").invalidated)
        // Taking the finger away again does not revive either key, even one never used in between.
        try await harness.context("").deletePrints(.leftIndex)
        #expect(try await sign("scan alice-1").failure?.code == .keyInvalidated)
        #expect(try await sign("scan alice-1", label: "untouched").failure?.code == .keyInvalidated)
        #expect(try await counter() == 0)
    }

    @Test func printsChangedBehindTheEngineAreCaughtBeforeTheScan() async throws {
        try await harness.enroll()
        try await harness.enroll(.leftIndex, id: "alice-2")
        _ = try await vault().create(label: "login", accessControl: .biometryCurrentSet)
        try FileManager.default.removeItem(atPath: harness.state.file("prints/alice/fake/0/left-index.json"))
        // Refused before scanning: the script's non-matching scans would otherwise count as failures.
        #expect(try await sign("scan x\nscan y\nscan z").failure?.code == .keyInvalidated)
        #expect(harness.counter().biometricFailures == 0)
        #expect(try await vault().describe(label: "login").invalidated)
    }

    @Test func biometryAnySurvivesANewFinger() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryAny)
        try await harness.enroll(.leftIndex, id: "alice-2")
        #expect(try await sign("scan alice-2").get().counter == 1)
        #expect(try await vault().describe(label: "login").invalidated == false)
    }

    @Test func userPresenceFallsToThePasscode() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .userPresence)
        #expect(try await sign("scan alice-1").get().method == .fingerprint)
        let fallback = try await sign("scan x\nfallback", passcodes: ["2468"]).get()
        #expect(fallback.method == .passcode && fallback.counter == 2)
        #expect(try await sign("scan x\nfallback", passcodes: ["1357"]).failure?.code == .authenticationFailed)
        #expect(try await counter() == 2)
    }

    @Test func devicePasscodeAsksOnlyThePasscode() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "pay", accessControl: .devicePasscode)
        // An empty script: a scan would end it with scriptEnded.
        let signed = try await sign("", label: "pay", passcodes: ["1357", "2468"]).get()
        #expect(signed.method == .passcode && signed.counter == 1)
        #expect(try await sign("scan alice-1", label: "pay").failure?.code == .userCancel)
        #expect(try await counter("pay") == 1)
    }

    @Test func removingThePasscodeInvalidatesEveryKey() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "pay", accessControl: .devicePasscode)
        _ = try await vault().create(label: "login", accessControl: .biometryAny)
        _ = try await harness.context("").passcode.remove(prompt: ListedPasscodes(["2468"]))
        // A passcode set again (the same one, even) and the finger back do not release them.
        try await harness.setPasscode()
        try await harness.enroll()
        #expect(try await sign("", label: "pay", passcodes: ["2468"]).failure?.code == .keyInvalidated)
        #expect(try await sign("scan alice-1").failure?.code == .keyInvalidated)
    }

    @Test func theCounterStrictlyIncreasesAcrossSignsAndContexts() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryAny)
        let vault = try await vault("scan alice-1\nscan alice-1")
        var counters: [UInt64] = []
        for _ in 0..<2 {
            counters.append(try await vault.sign(label: "login", data: challenge, reason: "Sign", prompt: NoPasscodePrompt()).counter)
        }
        for _ in 0..<2 { counters.append(try await sign("scan alice-1").get().counter) }
        #expect(counters == [1, 2, 3, 4])
        #expect(try await counter() == 4)
    }

    @Test func theAttestationVerifiesWithTheIdentityKeyAndNotAfterAnyChange() async throws {
        try await harness.enroll()
        let key = try await vault().create(label: "login", accessControl: .biometryCurrentSet)
        let identity = try await vault().identity()
        #expect(identity.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(try await vault().identity() == identity)
        let attestation = key.attestation
        #expect(KeyAttestation.verify(statement: attestation.statement, signature: attestation.signature, identityKeyPEM: identity))
        for index in [0, attestation.statement.count / 2, attestation.statement.count - 1] {
            var statement = attestation.statement
            statement[index] ^= 0x01
            #expect(!KeyAttestation.verify(statement: statement, signature: attestation.signature, identityKeyPEM: identity))
        }
        for index in [0, attestation.signature.count / 2, attestation.signature.count - 1] {
            var signature = attestation.signature
            signature[index] ^= 0x01
            #expect(!KeyAttestation.verify(statement: attestation.statement, signature: signature, identityKeyPEM: identity))
        }
        // Another identity does not vouch for it.
        let stranger = P256.Signing.PrivateKey().publicKey.pemRepresentation
        #expect(!KeyAttestation.verify(statement: attestation.statement, signature: attestation.signature, identityKeyPEM: stranger))

        let text = String(decoding: attestation.statement, as: UTF8.self)
        #expect(text.hasPrefix("{\"accessControl\":\"biometryCurrentSet\",\"createdAt\":") && !text.contains(" ") && !text.contains("\n"))
        let contents = try #require(attestation.contents)
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM)
        #expect(contents.format == "fpbridge-attestation-v1" && contents.user == "alice" && contents.label == "login")
        #expect(contents.publicKey == publicKey.x963Representation.base64EncodedString())
        #expect(contents.createdAt == key.createdAt && contents.protection == "development")
        #expect(contents.serviceVersion == FPBridgeVersion.current)
        #expect(try await vault().describe(label: "login").attestation == attestation)
    }

    @Test func keyFilesHoldNoPrivateKeyBytesAndAreClosedToOthers() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryAny)
        let record = try #require(try KeyStore(directory: harness.state).record(user: "alice", label: "login"))
        let raw = try KeyStore(directory: harness.state).privateKey(of: record).rawRepresentation
        let file = try #require(FileManager.default.contents(atPath: keyFile()))
        for form in [raw, raw.base64EncodedData(), Data(raw.map { String(format: "%02x", $0) }.joined().utf8)] {
            #expect(file.range(of: form) == nil)
        }
        let masterKey = try #require(FileManager.default.contents(atPath: harness.state.file("service/master.key")))
        #expect(masterKey.count == 32)
        for path in [keyFile(), harness.state.file("service/master.key"), harness.state.file("service/identity.json")] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(path)")
        }
        for path in [harness.state.file("keys/alice"), harness.state.file("service")] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o700, "\(path)")
        }
    }

    @Test func aDamagedKeyFileIsNamedAndNothingSigns() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryAny)
        let original = try #require(FileManager.default.contents(atPath: keyFile()))
        let damaged = original.prefix(60)
        try damaged.write(to: URL(fileURLWithPath: keyFile()))
        let failure = try #require(try await sign("scan alice-1").failure)
        #expect(failure.code == .stateDamaged && failure.message.contains(keyFile()))
        #expect(harness.counter().biometricFailures == 0)
        await #expect(throws: AuthError.self) { try await vault().list() }
        // Never overwritten: making the label again is refused and the file stays as it was.
        let again = try await vault()
        #expect(code { try again.create(label: "login", accessControl: .biometryAny) } == .stateDamaged)
        #expect(FileManager.default.contents(atPath: keyFile()) == damaged)
        // The administrator's way out, as for any damaged state file: moved aside, then the label is free.
        let repair = StateRepair(stateDirectory: harness.state)
        let findings = try repair.findings()
        #expect(findings.map(\.kind) == [.key] && findings.first?.path == keyFile())
        let moved = try repair.repair(findings)
        #expect(moved.count == 1 && FileManager.default.contents(atPath: moved[0]) == damaged)
        #expect(code { try again.create(label: "login", accessControl: .biometryAny) } == nil)
    }

    @Test func aDamagedDeviceIdentityIsFoundAndMovedAsideByRepair() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryAny)
        let identity = ServiceKeys(directory: harness.state).identityPath
        let damaged = Data("{\"format\": 1, \"publicKey\": \"AAAA\"}".utf8)
        try damaged.write(to: URL(fileURLWithPath: identity))
        let repair = StateRepair(stateDirectory: harness.state)
        let findings = try repair.findings()
        #expect(findings.map(\.kind) == [.serviceKey] && findings.first?.path == identity, "\(findings)")
        let moved = try repair.repair(findings)
        #expect(moved.count == 1 && FileManager.default.contents(atPath: moved[0]) == damaged)
        // A new identity is made on next use; the stored key still signs.
        #expect(try await vault().identity().hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(try repair.findings().isEmpty)
    }

    @Test func aSealedKeyMovedToAnotherRecordDoesNotOpenThere() async throws {
        try await harness.enroll()
        _ = try await vault().create(label: "login", accessControl: .biometryAny)
        _ = try await vault().create(label: "other", accessControl: .biometryAny)
        // Put "other"'s sealed private key into "login"'s file: the sizes are right, the owner is not.
        let store = KeyStore(directory: harness.state)
        let other = try #require(try store.record(user: "alice", label: "other"))
        var fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: keyFile()))) as? [String: Any])
        fields["encryptedPrivateKey"] = other.encryptedPrivateKey.base64EncodedString()
        try JSONSerialization.data(withJSONObject: fields).write(to: URL(fileURLWithPath: keyFile()))
        #expect(try store.record(user: "alice", label: "login")?.encryptedPrivateKey == other.encryptedPrivateKey)
        let failure = try #require(try await sign("scan alice-1").failure)
        #expect(failure.code == .stateDamaged && failure.message.contains(keyFile()))
        #expect(try await counter() == 0)
    }

    @Test func labelsAreCheckedAsUserNamesAre() async throws {
        try await harness.enroll()
        let vault = try await vault()
        for label in ["../x", "", "a/b", ".hidden", String(repeating: "k", count: 65)] {
            #expect(code { try vault.create(label: label, accessControl: .biometryAny) } == .invalidInput)
            #expect(code { try vault.delete(label: label) } == .invalidInput)
            #expect(code { try vault.describe(label: label) } == .invalidInput)
            #expect(try await sign("scan alice-1", label: label).failure?.code == .invalidInput)
        }
        #expect(!FileManager.default.fileExists(atPath: harness.state.file("x.json")))
        #expect(!FileManager.default.fileExists(atPath: harness.state.file("keys/x.json")))
    }

    @Test func makingAKeyNeedsWhatApplesDoesAndALabelOnce() async throws {
        let vault = try await vault()
        #expect(throws: AuthError(.passcodeNotSet, "no passcode is set for alice")) {
            try vault.create(label: "login", accessControl: .devicePasscode)
        }
        try await harness.setPasscode()
        #expect(code { try vault.create(label: "login", accessControl: .biometryCurrentSet) } == .biometryNotEnrolled)
        _ = try vault.create(label: "pay", accessControl: .devicePasscode)
        _ = try vault.create(label: "presence", accessControl: .userPresence)
        #expect(code { try vault.create(label: "pay", accessControl: .userPresence) } == .alreadyEnrolled)
        #expect(try vault.list().map(\.label) == ["pay", "presence"])
        try vault.delete(label: "pay")
        #expect(try vault.list().map(\.label) == ["presence"])
        #expect(code { try vault.delete(label: "pay") } == .notFound)
        #expect(try await sign("", label: "pay").failure?.code == .notFound)
    }
}

/// The code a call fails with; nil when it succeeds.
private func code<T>(_ body: () throws -> T) -> AuthErrorCode? {
    do {
        _ = try body()
        return nil
    } catch {
        return (error as? AuthError)?.code
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

/// Issue 27 §1: prints have a quota per user too.
@Suite struct PrintQuotaTests {
    @Test func aUserHoldsAtMostThePrintQuota() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1")
        let store = PrintStore(directory: harness.state)
        let sample = try #require(try store.prints(user: "alice", reader: nil).first)
        // Prints on as many other (fake) readers as the quota leaves room for.
        try store.withLock {
            for index in 1..<Enrollment.maximumPrintsPerUser {
                try store.save(PrintRecord(user: "alice", finger: .rightIndex, reader: ReaderIdentity(driver: "fake", deviceID: "r\(index)"),
                                           enrolledAt: Date(), storedOnDevice: false, print: sample.print))
            }
        }
        do {
            try await harness.enroll(.leftIndex, id: "alice-2")
            Issue.record("a print past the quota was saved")
        } catch {
            #expect(AuthError(error).code == .invalidInput && AuthError(error).message.contains("\(Enrollment.maximumPrintsPerUser) prints"))
        }
        #expect(try store.prints(user: "alice", reader: nil).count == Enrollment.maximumPrintsPerUser)
        // Replacing one that is there is not a new print.
        try await harness.enroll(.rightIndex, id: "alice-3", replace: true)
    }
}
