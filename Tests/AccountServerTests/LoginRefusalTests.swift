import FPAccountAPI
import FPAccountLoad
import FPKeyFormats
import Foundation
import Testing
import TestSupport

/// Fingerprint login against the real server process: what must be refused is refused with
/// its code, and nothing refused is recorded as a success. On SQLite and PostgreSQL.
@Suite struct LoginRefusalTests {
    @Test(arguments: Storage.allCases)
    func aSignedLoginWorksOnceAndItsReplayIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let challenge = try harness.decode(try await harness.challenge(), as: Challenge.self)
        #expect(challenge.purpose == "login" && challenge.origin == harness.server.origin)
        #expect(KeyIdentifiers.bytes(base64URL: challenge.challenge)?.count == 32)
        #expect(challenge.expiresAt - harness.server.now <= 120_000)
        let assertion = harness.device.login(challenge, origin: harness.server.origin, counter: 1)
        let first = try await harness.server.request("POST", "/v1/logins", json: assertion)
        #expect(first.status == 200 && first.json["kind"] as? String == "fingerprint")
        let token = try #require(first.json["token"] as? String)
        let me = try await harness.server.request("GET", "/v1/me", token: token)
        #expect(me.json["username"] as? String == "alice" && me.json["kind"] as? String == "fingerprint")

        // The same bytes again, and the same challenge with a fresh signature and a higher counter.
        let replay = try await harness.server.request("POST", "/v1/logins", json: assertion)
        #expect(replay.status == 401 && replay.errorCode == "challengeInvalid")
        let reused = try await harness.server.request("POST", "/v1/logins",
                                                      json: harness.device.login(challenge, origin: harness.server.origin, counter: 2))
        #expect(reused.status == 401 && reused.errorCode == "challengeInvalid")
        #expect(try await harness.successes("fingerprint-login") == 1)
        // The refused ones did not count against the credential: the next honest login works.
        #expect(try await harness.login(counter: 3).status == 200)
    }

    @Test(arguments: Storage.allCases)
    func anExpiredChallengeIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--challenge-seconds", "1"])
        let challenge = try harness.decode(try await harness.challenge(), as: Challenge.self)
        try harness.server.advanceClock(by: 1.3)
        let late = try await harness.server.request("POST", "/v1/logins",
                                                    json: harness.device.login(challenge, origin: harness.server.origin, counter: 1))
        #expect(late.status == 401 && late.errorCode == "challengeInvalid")
        #expect(try await harness.successes("fingerprint-login") == 0)
    }

    @Test(arguments: Storage.allCases)
    func aChallengeLifetimeOverFiveMinutesIsRefusedAtStart(storage: Storage) async throws {
        let result = Spawn.shell([LoginServerProcess.executable, "--challenge-seconds", "301", "--database", "/tmp/never.sqlite"])
        #expect(result.status != 0 && result.output.contains("--challenge-seconds must be 1 to 300"))
    }

    @Test(arguments: Storage.allCases)
    func aCounterThatGoesBackFreezesTheCredentialUntilItIsBoundAgain(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        #expect(try await harness.login(counter: 5).status == 200)
        // A valid signature with a counter not above the last one: a cloned or replayed key.
        let back = try await harness.login(counter: 5)
        #expect(back.status == 403 && back.errorCode == "credentialFrozen")
        let next = try await harness.challenge()
        #expect(next.status == 403 && next.errorCode == "credentialFrozen")
        #expect(try await harness.successes("fingerprint-login") == 1)

        // The password and a new key bring the device back.
        let newKey = harness.device.newKey()
        let rebound = try await harness.server.request("POST", "/v1/devices",
                                                       json: newKey.bindRequest(deviceId: harness.device.deviceId), token: harness.session)
        #expect(rebound.status == 201 && rebound.json["deviceId"] as? String == harness.device.deviceId)
        #expect(try await harness.login(counter: 1, device: newKey).status == 200)
        let old = try await harness.challenge()
        #expect(old.status == 403 && old.errorCode == "credentialRevoked")
    }

    @Test(arguments: Storage.allCases)
    func aSignatureByAnotherDevicesKeyIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let challenge = try harness.decode(try await harness.challenge(), as: Challenge.self)
        let stranger = SoftwareDevice()
        var assertion = stranger.login(challenge, origin: harness.server.origin, counter: 1)
        assertion.credentialId = harness.device.credentialId
        let answer = try await harness.server.request("POST", "/v1/logins", json: assertion)
        #expect(answer.status == 401 && answer.errorCode == "verificationFailed" && answer.attemptsLeft == nil)
        // Another origin (a phishing site relaying the challenge) fails the same way.
        let relayed = try harness.decode(try await harness.challenge(), as: Challenge.self)
        let phished = try await harness.server.request("POST", "/v1/logins",
                                                       json: harness.device.login(relayed, origin: "https://bank.example.evil", counter: 1))
        #expect(phished.status == 401 && phished.errorCode == "verificationFailed")
        #expect(try await harness.successes("fingerprint-login") == 0)
    }

    /// Issue 28: anyone who knows a user name and a credential id can ask for a challenge and
    /// answer it with garbage. That must never block the holder: forged answers count against
    /// the address they come from, spend no challenge, and the credential stays active.
    @Test(arguments: Storage.allCases)
    func forgedAnswersNeverBlockTheCredentialNorSpendItsChallenge(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--trusted-proxy", "127.0.0.1", "--bad-signatures-per-address", "6"])
        let attacker = ["X-Forwarded-For": "198.51.100.66"]
        let stranger = SoftwareDevice()
        let challenge = try harness.decode(try await harness.challenge(), as: Challenge.self)
        var forged = stranger.login(challenge, origin: harness.server.origin, counter: 1)
        forged.credentialId = harness.device.credentialId
        for round in 1...8 {
            let answer = try await harness.server.request("POST", "/v1/logins", json: forged, headers: attacker)
            if round <= 6 {
                #expect(answer.status == 401 && answer.errorCode == "verificationFailed", "round \(round): \(answer.errorCode ?? "")")
            } else {
                #expect(answer.status == 429 && answer.errorCode == "rateLimited", "round \(round): \(answer.errorCode ?? "")")
            }
        }
        // The holder's answer to the very challenge the forgeries were sent for still logs in.
        let honest = harness.device.login(challenge, origin: harness.server.origin, counter: 1)
        let answer = try await harness.server.request("POST", "/v1/logins", json: honest, headers: ["X-Forwarded-For": "203.0.113.7"])
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let devices = try harness.decode(try await harness.server.request("GET", "/v1/devices", token: harness.session), as: DeviceList.self)
        #expect(devices.devices.map(\.status) == ["active"])
        #expect(try await harness.login(counter: 2).status == 200)
    }

    /// Issue 36: another user of alice's machine (or of her NAT) shares her address. Its forged
    /// answers, the default 10 a minute and more, never stop alice's own signature from that
    /// address, for a login or a payment: a failure is counted only after a signature fails.
    @Test(arguments: Storage.allCases)
    func forgedAnswersFromASharedAddressDoNotRefuseTheHoldersSignature(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let challenge = try harness.decode(try await harness.challenge(), as: Challenge.self)
        var forged = SoftwareDevice().login(challenge, origin: harness.server.origin, counter: 1)
        forged.credentialId = harness.device.credentialId
        var statuses: [Int] = []
        for _ in 1...12 { statuses.append(try await harness.server.request("POST", "/v1/logins", json: forged).status) }
        #expect(statuses == Array(repeating: 401, count: 10) + [429, 429], "\(statuses)")
        let honest = try await harness.server.request("POST", "/v1/logins",
                                                      json: harness.device.login(challenge, origin: harness.server.origin, counter: 1))
        #expect(honest.status == 200, "\(String(decoding: honest.body, as: UTF8.self))")
        let payment = try await harness.payment()
        let confirmed = try #require(harness.device.pay(payment, origin: harness.server.origin, counter: 2))
        #expect(try await harness.server.request("POST", "/v1/payments/\(payment.paymentId)/confirm", json: confirmed).status == 200)
    }

    @Test(arguments: Storage.allCases)
    func oneChallengeSentToTwoInstancesAtOnceLogsInExactlyOnce(storage: Storage) async throws {
        let directory = TemporaryDirectory()
        let database = try storage.newDatabase(in: directory)
        let origin = ["--origin", "https://login.test"]
        let first = try await LoginServerProcess(database: database, arguments: origin)
        let second = try await LoginServerProcess(database: database, arguments: origin + ["--challenges-per-credential", "1000"])
        _ = try await first.request("POST", "/v1/accounts", json: PasswordRequest(username: "alice", password: Harness.password))
        let session = try await Harness.passwordSession(second)
        let device = SoftwareDevice()
        #expect(try await first.request("POST", "/v1/devices", json: device.bindRequest(), token: session).status == 201)
        let rounds = 12
        var wins = 0
        for round in 1...rounds {
            let answer = try await second.request("POST", "/v1/challenges",
                                                  json: ChallengeRequest(username: "alice", credentialId: device.credentialId))
            let challenge = try JSONDecoder().decode(Challenge.self, from: answer.body)
            let assertion = device.login(challenge, origin: "https://login.test", counter: UInt64(round))
            async let a = first.request("POST", "/v1/logins", json: assertion)
            async let b = second.request("POST", "/v1/logins", json: assertion)
            let answers = try await [a, b]
            let ok = answers.filter { $0.status == 200 }
            #expect(ok.count == 1, "round \(round): \(answers.map { String(decoding: $0.body, as: UTF8.self) })")
            #expect(answers.allSatisfy { $0.status == 200 || $0.errorCode == "challengeInvalid" })
            wins += ok.count
        }
        #expect(wins == rounds)
        let audit = try JSONDecoder().decode(AuditLog.self, from: try await first.request("GET", "/v1/audit", token: session).body)
        #expect(audit.entries.filter { $0.event == "fingerprint-login" && $0.outcome == "ok" }.count == rounds)
    }

    @Test(arguments: Storage.allCases)
    func anUnboundDeviceCannotLogIn(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let fingerprintSession = try #require(try await harness.login(counter: 1).json["token"] as? String)
        // Only a password session unbinds (or binds).
        let refused = try await harness.server.request("DELETE", "/v1/devices/\(harness.device.deviceId)", token: fingerprintSession)
        #expect(refused.status == 403 && refused.errorCode == "forbidden")
        let unbound = try await harness.server.request("DELETE", "/v1/devices/\(harness.device.deviceId)", token: harness.session)
        #expect(unbound.status == 200)
        let after = try await harness.challenge()
        #expect(after.status == 403 && after.errorCode == "credentialRevoked")
        let again = try await harness.server.request("DELETE", "/v1/devices/\(harness.device.deviceId)", token: harness.session)
        #expect(again.status == 404 && again.errorCode == "notFound")
    }
}
