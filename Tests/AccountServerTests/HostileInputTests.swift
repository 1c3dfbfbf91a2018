import FPAccountAPI
import FPAccountLoad
import Foundation
import Testing
import TestSupport

/// Malformed and hostile requests: every one a 4xx naming what was wrong, never a 5xx,
/// never a crash, and the data intact afterwards. On SQLite and PostgreSQL.
@Suite struct HostileInputTests {
    static let sql = ["'; DROP TABLE accounts; --", "\" OR 1=1 --", "alice'--", "?", "$1", "\\", "%", "' UNION SELECT password_hash FROM accounts --"]

    @Test(arguments: Storage.allCases)
    func garbageGets4xxAndTheServerKeepsServing(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let server = harness.server
        var answers: [(String, LoginServerProcess.Answer)] = []
        func send(_ name: String, _ method: String, _ path: String, _ body: String? = nil, token: String? = nil) async throws {
            answers.append((name, try await server.request(method, path, body: body.map { Data($0.utf8) }, token: token)))
        }
        let posts = ["/v1/accounts", "/v1/sessions", "/v1/devices", "/v1/challenges", "/v1/logins", "/v1/payments", "/v1/payments/x/confirm"]
        for path in posts {
            try await send("not JSON \(path)", "POST", path, "{not json", token: harness.session)
            try await send("array \(path)", "POST", path, "[1,2]", token: harness.session)
            try await send("empty \(path)", "POST", path, "", token: harness.session)
            try await send("wrong types \(path)", "POST", path,
                           #"{"username":1,"password":[],"credentialId":{},"counter":"x","signature":null,"amount":12.5}"#, token: harness.session)
            try await send("unknown field \(path)", "POST", path, #"{"extra":true}"#, token: harness.session)
            try await send("huge \(path)", "POST", path, "{\"username\":\"" + String(repeating: "a", count: 200_000) + "\"}", token: harness.session)
            try await send("deep \(path)", "POST", path, String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000))
        }
        for text in Self.sql {
            try await send("sql username \(text)", "POST", "/v1/sessions", json(["username": text, "password": "whatever password"]))
            try await send("sql register \(text)", "POST", "/v1/accounts", json(["username": text, "password": "whatever password"]))
            try await send("sql credential \(text)", "POST", "/v1/challenges", json(["username": "alice", "credentialId": text]))
            try await send("sql login \(text)", "POST", "/v1/logins",
                           json(["challengeId": text, "credentialId": text, "counter": 1, "signature": text]))
            try await send("sql payment \(text)", "POST", "/v1/payments",
                           json(["amount": text, "currency": text, "payee": text, "credentialId": text]), token: harness.session)
            try await send("sql confirm path", "POST", "/v1/payments/" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "x") + "/confirm",
                           json(["challengeId": "a", "credentialId": "b", "counter": 1, "signature": "AAAA"]))
            try await send("sql unbind path", "DELETE", "/v1/devices/" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "x"),
                           token: harness.session)
            try await send("sql token", "GET", "/v1/devices", token: text)
        }
        try await send("huge counter", "POST", "/v1/logins", #"{"challengeId":"a","credentialId":"b","counter":18446744073709551615,"signature":"AAAA"}"#)
        try await send("negative counter", "POST", "/v1/logins", #"{"challengeId":"a","credentialId":"b","counter":-1,"signature":"AAAA"}"#)
        try await send("no such route", "GET", "/v1/nothing")
        try await send("wrong method", "PUT", "/v1/accounts", "{}")
        try await send("no token", "GET", "/v1/devices")
        try await send("long token", "GET", "/v1/devices", token: String(repeating: "t", count: 10_000))

        for (name, answer) in answers {
            #expect((400..<500).contains(answer.status), "\(name): \(answer.status) \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
            #expect(answer.errorCode != nil || answer.status == 405, "\(name): no error code")
        }
        #expect(server.isRunning)

        // SQL metacharacters are data where text is allowed: a payee and a device name, stored verbatim.
        let payee = Self.sql[0]
        let payment = try await harness.payment(amount: "1.00", payee: payee)
        #expect(payment.payee == payee)
        let named = harness.device.newKey()
        let bound = try await server.request("POST", "/v1/devices", json: named.bindRequest(name: Self.sql[7]), token: harness.session)
        #expect(bound.status == 201 && bound.json["name"] as? String == Self.sql[7])
        // And nothing was lost: alice logs in with her password and her finger.
        _ = try await Harness.passwordSession(server)
        #expect(try await harness.login(counter: 1, device: named).status == 200)
    }

    private func json(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }
}
