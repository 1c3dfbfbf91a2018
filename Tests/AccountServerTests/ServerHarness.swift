import FPAccountAPI
import FPAccountLoad
import Foundation
import Testing
import TestSupport

/// Where a case's server keeps its data: every rule is tested on both.
enum Storage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A new, empty database: a SQLite file path in `directory`, or a fresh PostgreSQL database.
    func newDatabase(in directory: TemporaryDirectory) throws -> String {
        switch self {
        case .sqlite: directory.file("accounts-\(UUID().uuidString.prefix(8)).sqlite")
        case .postgres: try TestPostgres.newDatabase()
        }
    }
}

/// One server with alice registered and a software device bound: the starting point of most cases.
struct Harness {
    static let password = "correct horse battery"
    let server: LoginServerProcess
    let directory: TemporaryDirectory
    let database: String
    let session: String
    let device: SoftwareDevice

    static func start(_ storage: Storage, arguments: [String] = [], device: SoftwareDevice = SoftwareDevice(localUser: "alice")) async throws -> Harness {
        let directory = TemporaryDirectory()
        return try await start(database: try storage.newDatabase(in: directory), in: directory, arguments: arguments, device: device)
    }

    /// The same on a database made already (an administrator's list in it, say).
    static func start(database: String, in directory: TemporaryDirectory, arguments: [String] = [],
                      device: SoftwareDevice = SoftwareDevice(localUser: "alice")) async throws -> Harness {
        let server = try await LoginServerProcess(database: database, arguments: arguments)
        let registered = try await server.request("POST", "/v1/accounts", json: PasswordRequest(username: "alice", password: password))
        #expect(registered.status == 201, "register: \(String(decoding: registered.body, as: UTF8.self))")
        let session = try await passwordSession(server)
        let bound = try await server.request("POST", "/v1/devices", json: device.bindRequest(), token: session)
        #expect(bound.status == 201, "bind: \(String(decoding: bound.body, as: UTF8.self))")
        return Harness(server: server, directory: directory, database: database, session: session, device: device)
    }

    /// The PEM file of `device`'s machine identity key in `directory`, as `device trust` reads it.
    static func identityFile(_ device: SoftwareDevice, in directory: TemporaryDirectory) throws -> String {
        let pem = directory.file("identity-\(device.deviceId.prefix(8)).pem")
        try device.identity.publicKey.pemRepresentation.write(toFile: pem, atomically: true, encoding: .utf8)
        return pem
    }

    static func passwordSession(_ server: LoginServerProcess, username: String = "alice") async throws -> String {
        let answer = try await server.request("POST", "/v1/sessions", json: PasswordRequest(username: username, password: password))
        return try #require(answer.json["token"] as? String, "password login: \(String(decoding: answer.body, as: UTF8.self))")
    }

    /// A login challenge for `device`'s credential (or the refusal).
    func challenge(_ device: SoftwareDevice? = nil, on server: LoginServerProcess? = nil) async throws -> LoginServerProcess.Answer {
        try await (server ?? self.server).request("POST", "/v1/challenges",
                                                  json: ChallengeRequest(username: "alice", credentialId: (device ?? self.device).credentialId))
    }

    func decode<T: Decodable>(_ answer: LoginServerProcess.Answer, as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: answer.body)
    }

    /// Logs in with `device` and `counter`; the server's answer.
    func login(counter: UInt64, device: SoftwareDevice? = nil) async throws -> LoginServerProcess.Answer {
        let device = device ?? self.device
        let challenge = try decode(try await self.challenge(device), as: Challenge.self)
        return try await server.request("POST", "/v1/logins", json: device.login(challenge, origin: server.origin, counter: counter))
    }

    /// A new payment for alice's device.
    func payment(amount: String = "10.00", payee: String = "Coffee Shop", token: String? = nil) async throws -> Payment {
        let answer = try await server.request("POST", "/v1/payments",
                                              json: PaymentRequest(amount: amount, currency: "EUR", payee: payee, credentialId: device.credentialId),
                                              token: token ?? session)
        #expect(answer.status == 201, "payment: \(String(decoding: answer.body, as: UTF8.self))")
        return try decode(answer, as: Payment.self)
    }

    /// Alice's audit log: (event, outcome) pairs, oldest first.
    func audit() async throws -> [(event: String, outcome: String)] {
        let answer = try await server.request("GET", "/v1/audit", token: session)
        let entries = try decode(answer, as: AuditLog.self).entries
        return entries.reversed().map { ($0.event, $0.outcome) }
    }

    func successes(_ event: String) async throws -> Int {
        try await audit().filter { $0.event == event && $0.outcome == "ok" }.count
    }
}
