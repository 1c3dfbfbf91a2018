import FPAccountAPI
import FPAccountLoad
import Foundation
import Testing
import TestSupport

/// Payment confirmation (seed 000) with dynamic linking: only a signature over exactly the
/// payment the server made confirms it, and only once. On SQLite and PostgreSQL.
@Suite struct PaymentTests {
    @Test(arguments: Storage.allCases)
    func aPaymentIsConfirmedOnlyBySignatureOverExactlyItsAmountAndPayee(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let origin = harness.server.origin

        var inflated = try await harness.payment(amount: "10.00", payee: "Coffee Shop")
        #expect(inflated.status == "pending" && inflated.challenge?.purpose == "payment")
        inflated.amount = "1000.00"
        let amountChanged = try await harness.server.request("POST", "/v1/payments/\(inflated.paymentId)/confirm",
                                                             json: try #require(harness.device.pay(inflated, origin: origin, counter: 1)))
        #expect(amountChanged.status == 401 && amountChanged.errorCode == "verificationFailed")

        var redirected = try await harness.payment(amount: "10.00", payee: "Coffee Shop")
        redirected.payee = "Mallory Ltd"
        let payeeChanged = try await harness.server.request("POST", "/v1/payments/\(redirected.paymentId)/confirm",
                                                            json: try #require(harness.device.pay(redirected, origin: origin, counter: 2)))
        #expect(payeeChanged.status == 401 && payeeChanged.errorCode == "verificationFailed")
        // A failure never says which part was wrong.
        for answer in [amountChanged, payeeChanged] {
            let message = ((answer.json["error"] as? [String: Any])?["message"] as? String ?? "").lowercased()
            #expect(!message.contains("amount") && !message.contains("payee"))
        }

        // A signature over one payment does not confirm another.
        let first = try await harness.payment(amount: "5.00", payee: "Bakery")
        let second = try await harness.payment(amount: "5.00", payee: "Bakery")
        let crossed = try await harness.server.request("POST", "/v1/payments/\(second.paymentId)/confirm",
                                                       json: try #require(harness.device.pay(first, origin: origin, counter: 3)))
        #expect(crossed.status == 401 && crossed.errorCode == "challengeInvalid")
        // ... and spends nothing: the first payment's only challenge still confirms it (issue 28).
        let own = try await harness.server.request("POST", "/v1/payments/\(first.paymentId)/confirm",
                                                   json: try #require(harness.device.pay(first, origin: origin, counter: 3)))
        #expect(own.status == 200 && own.json["status"] as? String == "confirmed")

        let honest = try await harness.payment(amount: "12.5", payee: "Coffee Shop")
        #expect(honest.amount == "12.50")
        let assertion = try #require(harness.device.pay(honest, origin: origin, counter: 4))
        let confirmed = try await harness.server.request("POST", "/v1/payments/\(honest.paymentId)/confirm", json: assertion)
        #expect(confirmed.status == 200 && confirmed.json["status"] as? String == "confirmed")
        let twice = try await harness.server.request("POST", "/v1/payments/\(honest.paymentId)/confirm", json: assertion)
        #expect(twice.status == 401 && twice.errorCode == "challengeInvalid")
        #expect(try await harness.successes("payment") == 2)
        let log = try await harness.audit().filter { $0.event == "payment" }.map(\.outcome)
        #expect(log == ["verificationFailed", "verificationFailed", "challengeInvalid", "ok", "ok", "challengeInvalid"])
    }

    @Test(arguments: Storage.allCases)
    func aPaymentNeedsASessionAndASoundAmount(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let request = PaymentRequest(amount: "10.00", currency: "EUR", payee: "Coffee Shop", credentialId: harness.device.credentialId)
        #expect(try await harness.server.request("POST", "/v1/payments", json: request).errorCode == "unauthorized")
        #expect(try await harness.server.request("POST", "/v1/payments", json: request, token: "forged").errorCode == "unauthorized")
        for amount in ["0", "0.00", "-1", "1.234", "1e3", "12,50", "", "9999999999999", " 1"] {
            var bad = request
            bad.amount = amount
            let answer = try await harness.server.request("POST", "/v1/payments", json: bad, token: harness.session)
            #expect(answer.status == 400 && answer.errorCode == "invalidRequest", "amount '\(amount)'")
        }
        for currency in ["eur", "EURO", "€", ""] {
            var bad = request
            bad.currency = currency
            #expect(try await harness.server.request("POST", "/v1/payments", json: bad, token: harness.session).status == 400)
        }
        for payee in ["", String(repeating: "x", count: 141), "line\nbreak"] {
            var bad = request
            bad.payee = payee
            #expect(try await harness.server.request("POST", "/v1/payments", json: bad, token: harness.session).status == 400)
        }
        // Another user's session cannot pay with alice's device.
        _ = try await harness.server.request("POST", "/v1/accounts", json: PasswordRequest(username: "bob", password: Harness.password))
        let bob = try await Harness.passwordSession(harness.server, username: "bob")
        let theft = try await harness.server.request("POST", "/v1/payments", json: request, token: bob)
        #expect(theft.status == 401 && theft.errorCode == "invalidCredentials")
    }
}
