import Crypto
import FPAccountAPI
import FPAccountLoad
import FPKeyFormats
import Foundation
import Testing
import TestSupport

/// The kiosk login (issue 25) against the real server process: a challenge tied to no user,
/// answered by the identified user's key with its attestation, checked as a device login.
/// On SQLite and PostgreSQL.
@Suite struct KioskLoginTests {
    func kioskChallenge(_ harness: Harness, origin: String? = nil, purpose: String? = nil) async throws -> LoginServerProcess.Answer {
        try await harness.server.request("POST", "/v1/kiosk/challenges",
                                         json: KioskChallengeRequest(origin: origin ?? harness.server.origin, purpose: purpose))
    }

    func challenge(_ harness: Harness, purpose: String? = nil) async throws -> KioskChallenge {
        let answer = try await kioskChallenge(harness, purpose: purpose)
        #expect(answer.status == 201, "\(String(decoding: answer.body, as: UTF8.self))")
        return try harness.decode(answer, as: KioskChallenge.self)
    }

    func send(_ harness: Harness, _ proof: KioskLoginRequest, pin: Bool = false) async throws -> LoginServerProcess.Answer {
        try await harness.server.request("POST", pin ? "/v1/kiosk/pin-logins" : "/v1/kiosk/logins", json: proof)
    }

    @Test(arguments: Storage.allCases)
    func aPINProofIsAKioskPinSessionAndNeverPassesForAFingerNorTheReverse(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let origin = harness.server.origin
        let pinChallenge = try await challenge(harness, purpose: "kiosk-pin-login")
        #expect(pinChallenge.purpose == "kiosk-pin-login" && pinChallenge.origin == origin)
        let pinProof = harness.device.kioskLogin(pinChallenge, origin: origin, counter: 1, purpose: .kioskPinLogin)
        // A PIN's proof at the finger's route: its challenge is not a finger's…
        let asFinger = try await send(harness, pinProof)
        #expect(asFinger.status == 401 && asFinger.errorCode == "challengeInvalid", "\(String(decoding: asFinger.body, as: UTF8.self))")
        // …and PIN-signed bytes over a finger's challenge do not verify as a finger's.
        let fingerChallenge = try await challenge(harness)
        let pinOverFinger = try await send(harness, harness.device.kioskLogin(fingerChallenge, origin: origin, counter: 1, purpose: .kioskPinLogin))
        #expect(pinOverFinger.status == 401 && pinOverFinger.errorCode == "verificationFailed")
        // The reverse: a finger's proof at the PIN's route, over either challenge.
        let fingerProof = harness.device.kioskLogin(fingerChallenge, origin: origin, counter: 1)
        let fingerAsPIN = try await send(harness, fingerProof, pin: true)
        #expect(fingerAsPIN.status == 401 && fingerAsPIN.errorCode == "challengeInvalid")
        let fingerOverPIN = try await send(harness, harness.device.kioskLogin(pinChallenge, origin: origin, counter: 1), pin: true)
        #expect(fingerOverPIN.status == 401 && fingerOverPIN.errorCode == "verificationFailed")
        #expect(try await harness.successes("kiosk-login") == 0)
        #expect(try await harness.successes("kiosk-pin-login") == 0)

        // The PIN's proof at its own route: a session of kind kiosk-pin, once.
        let answer = try await send(harness, pinProof, pin: true)
        #expect(answer.status == 200 && answer.json["kind"] as? String == "kiosk-pin" && answer.json["username"] as? String == "alice",
                "\(String(decoding: answer.body, as: UTF8.self))")
        let token = try #require(answer.json["token"] as? String)
        let me = try await harness.server.request("GET", "/v1/me", token: token)
        #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == "kiosk-pin")
        let replay = try await send(harness, pinProof, pin: true)
        #expect(replay.status == 401 && replay.errorCode == "challengeInvalid")
        #expect(try await harness.successes("kiosk-pin-login") == 1)
        #expect(try await harness.successes("kiosk-login") == 0)
        // The finger's proof still logs in as a finger: nothing above spent its challenge.
        let finger = try await send(harness, harness.device.kioskLogin(fingerChallenge, origin: origin, counter: 2))
        #expect(finger.status == 200 && finger.json["kind"] as? String == "kiosk")
    }

    @Test(arguments: Storage.allCases)
    func aForgedOrUnattestedPINProofIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let origin = harness.server.origin
        let unknown = try await kioskChallenge(harness, purpose: "login")
        #expect(unknown.status == 400 && unknown.errorCode == "invalidRequest")
        // Another key's signature, an attestation by another identity, or about another key.
        let stranger = SoftwareDevice()
        let unbound = try await send(harness, stranger.kioskLogin(try await challenge(harness, purpose: "kiosk-pin-login"), origin: origin,
                                                                  counter: 1, purpose: .kioskPinLogin), pin: true)
        #expect(unbound.status == 401 && unbound.errorCode == "challengeInvalid")
        let forged = try await send(harness, harness.device.kioskLogin(try await challenge(harness, purpose: "kiosk-pin-login"), origin: origin,
                                                                      counter: 1, signer: P256.Signing.PrivateKey(), purpose: .kioskPinLogin),
                                    pin: true)
        #expect(forged.status == 422 && forged.errorCode == "attestationRejected")
        var garbage = harness.device.kioskLogin(try await challenge(harness, purpose: "kiosk-pin-login"), origin: origin, counter: 1,
                                                purpose: .kioskPinLogin)
        garbage.signature = stranger.kioskLogin(try await challenge(harness), origin: origin, counter: 1).signature
        let bad = try await send(harness, garbage, pin: true)
        #expect(bad.status == 401 && bad.errorCode == "verificationFailed")
        #expect(try await harness.successes("kiosk-pin-login") == 0)
    }

    @Test(arguments: Storage.allCases)
    func aValidKioskProofLogsAliceInOnceAndItsReplayIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let challenge = try await challenge(harness)
        #expect(challenge.purpose == "kiosk-login" && challenge.origin == harness.server.origin)
        #expect(KeyIdentifiers.bytes(base64URL: challenge.challenge)?.count == 32)
        #expect(challenge.expiresAt - harness.server.now <= 120_000)
        let proof = harness.device.kioskLogin(challenge, origin: harness.server.origin, counter: 1)
        let answer = try await send(harness, proof)
        #expect(answer.status == 200 && answer.json["kind"] as? String == "kiosk" && answer.json["username"] as? String == "alice",
                "\(String(decoding: answer.body, as: UTF8.self))")
        let token = try #require(answer.json["token"] as? String)
        let me = try await harness.server.request("GET", "/v1/me", token: token)
        #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == "kiosk")
        // A kiosk session is not a password session: it binds nothing.
        let bind = try await harness.server.request("POST", "/v1/devices", json: SoftwareDevice().bindRequest(), token: token)
        #expect(bind.status == 403 && bind.errorCode == "forbidden")

        // The same bytes again; the same challenge signed afresh with a higher counter.
        let replay = try await send(harness, proof)
        #expect(replay.status == 401 && replay.errorCode == "challengeInvalid")
        let reused = try await send(harness, harness.device.kioskLogin(challenge, origin: harness.server.origin, counter: 2))
        #expect(reused.status == 401 && reused.errorCode == "challengeInvalid")
        #expect(try await harness.successes("kiosk-login") == 1)
        // The old proof for a new challenge does not verify (the challenge is signed).
        var stale = proof
        stale.challengeId = try await self.challenge(harness).challengeId
        #expect(try await send(harness, stale).errorCode == "verificationFailed")
        #expect(try await send(harness, harness.device.kioskLogin(try await self.challenge(harness), origin: harness.server.origin,
                                                                 counter: 3)).status == 200)
    }

    @Test(arguments: Storage.allCases)
    func aWrongCounterIsRefusedAndOneThatGoesBackFreezes(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let challenge = try await challenge(harness)
        // The counter is inside the signed message: another number does not verify, and spends nothing.
        var wrong = harness.device.kioskLogin(challenge, origin: harness.server.origin, counter: 4)
        wrong.counter = 5
        let refused = try await send(harness, wrong)
        #expect(refused.status == 401 && refused.errorCode == "verificationFailed")
        #expect(try await send(harness, harness.device.kioskLogin(challenge, origin: harness.server.origin, counter: 4)).status == 200)
        // A valid signature with a counter not above the last one: a cloned key, frozen as for a device login.
        let back = try await send(harness, harness.device.kioskLogin(try await self.challenge(harness), origin: harness.server.origin, counter: 4))
        #expect(back.status == 403 && back.errorCode == "credentialFrozen")
        let after = try await send(harness, harness.device.kioskLogin(try await self.challenge(harness), origin: harness.server.origin, counter: 9))
        #expect(after.status == 403 && after.errorCode == "credentialFrozen")
        #expect(try await harness.successes("kiosk-login") == 1)
    }

    @Test(arguments: Storage.allCases)
    func aKeyNotVouchedForIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        // A key the server never bound, however well it signs and is attested.
        let stranger = SoftwareDevice()
        let unbound = try await send(harness, stranger.kioskLogin(try await challenge(harness), origin: harness.server.origin, counter: 1))
        #expect(unbound.status == 401 && unbound.errorCode == "challengeInvalid")
        // alice's key, but an attestation by another identity than the device it was bound on…
        let forged = try await send(harness, harness.device.kioskLogin(try await challenge(harness), origin: harness.server.origin,
                                                                      counter: 1, signer: P256.Signing.PrivateKey()))
        #expect(forged.status == 422 && forged.errorCode == "attestationRejected")
        // …or the device's statement about another key.
        let other = try await send(harness, harness.device.kioskLogin(try await challenge(harness), origin: harness.server.origin,
                                                                     counter: 1, statementKey: P256.Signing.PrivateKey().publicKey))
        #expect(other.status == 422 && other.errorCode == "attestationRejected")
        #expect(try await harness.successes("kiosk-login") == 0)
        // None of it spent the credential: the real proof works.
        #expect(try await send(harness, harness.device.kioskLogin(try await challenge(harness), origin: harness.server.origin,
                                                                 counter: 1)).status == 200)

        // A development key (in the user's own files) is never a kiosk's, even where it may log in.
        let lenient = try await Harness.start(storage, arguments: ["--accept-development-keys", "--accept-access-control", "biometryAny"],
                                              device: SoftwareDevice(accessControl: "biometryAny", protection: "development", localUser: "alice"))
        let development = try await send(lenient, lenient.device.kioskLogin(try await challenge(lenient), origin: lenient.server.origin, counter: 1))
        #expect(development.status == 422 && development.errorCode == "keyNotAccepted")
    }

    @Test(arguments: Storage.allCases)
    func underTrustedIdentitiesOnlyAKioskTheAdministratorRemovedIsRefused(storage: Storage) async throws {
        let directory = TemporaryDirectory()
        let database = try storage.newDatabase(in: directory)
        let kiosk = SoftwareDevice(localUser: "alice")
        let pem = try Harness.identityFile(kiosk, in: directory)
        try Self.serverCommand(["device", "trust", "--database", database, "--identity", pem, "--name", "Kiosk 1"])
        let harness = try await Harness.start(database: database, in: directory, arguments: ["--trusted-identities-only"], device: kiosk)
        #expect(try await send(harness, kiosk.kioskLogin(try await challenge(harness), origin: harness.server.origin, counter: 1)).status == 200)
        try Self.serverCommand(["device", "distrust", "--database", database, "--identity", pem])
        let gone = try await send(harness, kiosk.kioskLogin(try await challenge(harness), origin: harness.server.origin, counter: 2))
        #expect(gone.status == 403 && gone.errorCode == "identityNotTrusted")
    }

    @Test(arguments: Storage.allCases)
    func aChallengeForAnotherOriginIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let asked = try await kioskChallenge(harness, origin: "https://evil.example")
        #expect(asked.status == 400 && asked.errorCode == "invalidRequest")
        // A proof signed for another origin (a kiosk reached by a look-alike) does not verify here.
        let signed = try await send(harness, harness.device.kioskLogin(try await challenge(harness), origin: "https://evil.example", counter: 1))
        #expect(signed.status == 401 && signed.errorCode == "verificationFailed")
        #expect(try await harness.successes("kiosk-login") == 0)
    }

    @Test(arguments: Storage.allCases)
    func anExpiredChallengeIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--challenge-seconds", "1"])
        let challenge = try await challenge(harness)
        try harness.server.advanceClock(by: 1.3)
        let late = try await send(harness, harness.device.kioskLogin(challenge, origin: harness.server.origin, counter: 1))
        #expect(late.status == 401 && late.errorCode == "challengeInvalid")
        #expect(try await harness.successes("kiosk-login") == 0)
    }

    @Test(arguments: Storage.allCases)
    func aKioskProofIsNoDeviceLoginAndADeviceLoginNoKioskProof(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        // A device login's challenge and signature, sent as a kiosk proof.
        let device = try harness.decode(try await harness.challenge(), as: Challenge.self)
        let login = harness.device.login(device, origin: harness.server.origin, counter: 1)
        let (statement, attestation) = harness.device.attestation()
        let asKiosk = try await send(harness, KioskLoginRequest(challengeId: login.challengeId, credentialId: login.credentialId, counter: 1,
                                                               signature: login.signature, attestationStatement: statement.base64EncodedString(),
                                                               attestationSignature: attestation.base64EncodedString()))
        #expect(asKiosk.status == 401 && asKiosk.errorCode == "challengeInvalid")
        // A kiosk proof sent as a device login.
        let proof = harness.device.kioskLogin(try await challenge(harness), origin: harness.server.origin, counter: 1)
        let asLogin = try await harness.server.request("POST", "/v1/logins", json: AssertionRequest(
            challengeId: proof.challengeId, credentialId: proof.credentialId, counter: 1, signature: proof.signature))
        #expect(asLogin.status == 401 && asLogin.errorCode == "challengeInvalid")
        // A kiosk challenge signed as a device login's payload: the purpose is signed.
        let kiosk = try await challenge(harness)
        let mislabelled = harness.device.assertion(
            Challenge(challengeId: kiosk.challengeId, challenge: kiosk.challenge, purpose: "login", origin: kiosk.origin,
                      credentialId: harness.device.credentialId, expiresAt: kiosk.expiresAt),
            payload: .login(origin: harness.server.origin, challenge: kiosk.challenge, credentialId: harness.device.credentialId), counter: 1)
        let wrongPurpose = try await send(harness, KioskLoginRequest(challengeId: kiosk.challengeId, credentialId: mislabelled.credentialId,
                                                                    counter: 1, signature: mislabelled.signature,
                                                                    attestationStatement: statement.base64EncodedString(),
                                                                    attestationSignature: attestation.base64EncodedString()))
        #expect(wrongPurpose.status == 401 && wrongPurpose.errorCode == "verificationFailed")
        let kioskLogins = try await harness.successes("kiosk-login"), deviceLogins = try await harness.successes("fingerprint-login")
        #expect(kioskLogins == 0 && deviceLogins == 0)
    }

    @Test(arguments: Storage.allCases)
    func kioskChallengesAreLimitedPerAddress(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--challenges-per-address", "3"])
        for _ in 0..<3 { #expect(try await kioskChallenge(harness).status == 201) }
        let over = try await kioskChallenge(harness)
        #expect(over.status == 429 && over.errorCode == "rateLimited")
        // A bucket of its own: the device's challenges from the same address are not used up.
        #expect(try await harness.challenge().status == 201)
        try harness.server.advanceClock(by: 60)
        #expect(try await kioskChallenge(harness).status == 201)
    }

    @discardableResult
    static func serverCommand(_ arguments: [String]) throws -> String {
        let result = Spawn.shell([LoginServerProcess.executable] + arguments)
        try #require(result.status == 0, "fpbridge-server \(arguments.joined(separator: " ")): \(result.output)")
        return result.output
    }
}
