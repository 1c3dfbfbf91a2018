import Crypto
import FPAccountAPI
import FPAccountLoad
import Foundation
import Testing
import TestSupport

/// Device binding (seed 002, step 2): only a key its device identity attests, of an
/// accepted kind, with trust on first use of that identity. On SQLite and PostgreSQL.
@Suite struct BindingTests {
    @Test(arguments: Storage.allCases)
    func onlyAKeyAttestedByItsIdentityKeyIsBound(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let device = SoftwareDevice()
        let stranger = P256.Signing.PrivateKey()
        let forged = try await harness.server.request("POST", "/v1/devices", json: device.bindRequest(signer: stranger), token: harness.session)
        #expect(forged.status == 422 && forged.errorCode == "attestationRejected")
        let aboutAnother = try await harness.server.request("POST", "/v1/devices",
                                                            json: device.bindRequest(statementKey: stranger.publicKey), token: harness.session)
        #expect(aboutAnother.status == 422 && aboutAnother.errorCode == "attestationRejected")

        // Trust on first use: a known device speaks with the identity key it was bound with.
        let impostor = SoftwareDevice()
        let mismatch = try await harness.server.request("POST", "/v1/devices",
                                                        json: impostor.bindRequest(deviceId: harness.device.deviceId), token: harness.session)
        #expect(mismatch.status == 409 && mismatch.errorCode == "deviceMismatch")
        let rebound = try await harness.server.request("POST", "/v1/devices",
                                                       json: harness.device.newKey().bindRequest(deviceId: harness.device.deviceId),
                                                       token: harness.session)
        #expect(rebound.status == 201)
        let sameKey = try await harness.server.request("POST", "/v1/devices", json: harness.device.bindRequest(), token: harness.session)
        #expect(sameKey.status == 422 && sameKey.errorCode == "keyNotAccepted")

        let devices = try harness.decode(try await harness.server.request("GET", "/v1/devices", token: harness.session), as: DeviceList.self)
        #expect(devices.devices.count == 1 && devices.devices[0].status == "active" && devices.devices[0].protection == "service")
        let binds = try await harness.audit().filter { $0.event == "bind" }.map(\.outcome)
        #expect(binds == ["ok", "attestationRejected", "attestationRejected", "deviceMismatch", "ok", "keyNotAccepted"])
    }

    @Test(arguments: Storage.allCases)
    func keysOfTheWrongKindAreRefusedUnlessTheServerAcceptsThem(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let development = SoftwareDevice(protection: "development")
        let refused = try await harness.server.request("POST", "/v1/devices", json: development.bindRequest(), token: harness.session)
        #expect(refused.status == 422 && refused.errorCode == "keyNotAccepted")
        let passcodeOnly = SoftwareDevice(accessControl: "devicePasscode")
        let notBiometric = try await harness.server.request("POST", "/v1/devices", json: passcodeOnly.bindRequest(), token: harness.session)
        #expect(notBiometric.status == 422 && notBiometric.errorCode == "keyNotAccepted")

        let lenient = try await Harness.start(storage, arguments: ["--accept-development-keys", "--accept-access-control", "biometryAny"],
                                              device: SoftwareDevice(accessControl: "biometryAny", protection: "development"))
        #expect(try await lenient.login(counter: 1).status == 200)
    }

    @Test(arguments: Storage.allCases)
    func passwordsAndSessions(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--password-logins-per-account-address", "2"])
        let wrong = try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "alice", password: "wrong password"))
        let unknown = try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "nobody", password: "wrong password"))
        #expect(wrong.status == 401 && unknown.status == 401 && wrong.body == unknown.body)
        let taken = try await harness.server.request("POST", "/v1/accounts", json: PasswordRequest(username: "alice", password: "another password"))
        #expect(taken.status == 409 && taken.errorCode == "usernameTaken")
        let short = try await harness.server.request("POST", "/v1/accounts", json: PasswordRequest(username: "carol", password: "short"))
        #expect(short.status == 400)
        // Right passwords use up none of the guesses: Harness.start's login and these two.
        for _ in 0..<2 {
            #expect(try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "alice", password: Harness.password)).status == 200)
        }
        // One wrong guess so far; a second is the limit, and then even the right password waits, with Retry-After.
        #expect(try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "alice", password: "wrong again")).status == 401)
        let limited = try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "alice", password: Harness.password))
        #expect(limited.status == 429 && limited.errorCode == "rateLimited")
        #expect(((limited.json["error"] as? [String: Any])?["retryAfter"] as? Int).map { (1...60).contains($0) } == true)
        // The next minute's window starts afresh.
        try harness.server.advanceClock(by: 60)
        #expect(try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "alice", password: Harness.password)).status == 200)
        // The database keeps neither the password nor the token.
        if storage == .sqlite {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: harness.database))
                + ((try? Data(contentsOf: URL(fileURLWithPath: harness.database + "-wal"))) ?? Data())
            #expect(bytes.range(of: Data(Harness.password.utf8)) == nil)
            #expect(bytes.range(of: Data(harness.session.utf8)) == nil)
            var info = stat()
            #expect(stat(harness.database, &info) == 0 && info.st_mode & 0o077 == 0)
        }
    }

    @Test(arguments: Storage.allCases)
    func registrationsAreRateLimitedPerAddress(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--registrations-per-address", "2"])
        #expect(try await harness.server.request("POST", "/v1/accounts", json: PasswordRequest(username: "bob", password: Harness.password)).status == 201)
        let limited = try await harness.server.request("POST", "/v1/accounts", json: PasswordRequest(username: "carol", password: Harness.password))
        #expect(limited.status == 429 && limited.errorCode == "rateLimited")
        // A bucket of their own: logging in is not held up by sign-ups (issue 28).
        #expect(try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "bob", password: Harness.password)).status == 200)
    }

    @Test(arguments: Storage.allCases)
    func challengesAreRateLimitedPerCredential(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--challenges-per-credential", "3"])
        for _ in 0..<3 { #expect(try await harness.challenge().status == 201) }
        let limited = try await harness.challenge()
        #expect(limited.status == 429 && limited.errorCode == "rateLimited")
    }
}
