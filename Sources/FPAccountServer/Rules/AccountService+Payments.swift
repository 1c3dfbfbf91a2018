import FPAccountAPI
import FPKeyFormats

extension AccountService {
    /// `POST /v1/payments` (seed 000): a payment for a logged-in user, with the challenge
    /// its device must sign over exactly this payment.
    func createPayment(_ request: PaymentRequest, session: SessionInfo, address: String?) async throws -> Payment {
        guard let amount = AccountLimits.canonicalAmount(request.amount) else {
            throw AccountError(.invalidRequest, "'amount' must be a positive amount with at most two decimals and 12 digits (12.50)")
        }
        guard AccountLimits.isCurrency(request.currency) else {
            throw AccountError(.invalidRequest, "'currency' must be three capital letters (ISO 4217, e.g. EUR)")
        }
        let payee = try promptText(request.payee, "payee", AccountLimits.payeeLength)
        let credential = try await activeCredential(request.credentialId, of: session.username)
        let row = PaymentRow(paymentId: RandomTokens.make(bytes: 16), username: session.username, credentialId: credential.credentialId,
                             amount: amount, currency: request.currency, payee: payee, status: "pending")
        let challenge = try await issueChallenge(for: credential, purpose: .payment, payment: row, address: address)
        return Payment(paymentId: row.paymentId, amount: amount, currency: row.currency, payee: row.payee, status: row.status,
                       challenge: challenge)
    }

    /// `POST /v1/payments/{id}/confirm`: accepted only with a signature over exactly this
    /// payment's id, amount, currency and payee (dynamic linking), and only once.
    func confirmPayment(_ paymentId: String, _ request: AssertionRequest, address: String?) async throws -> Payment {
        let paymentId = try identifier(paymentId, "payment id")
        var confirmed: PaymentRow?
        let (_, rows) = try await verify(request, purpose: .payment, address: address) { opened in
            guard opened.paymentId == paymentId, let payment = try await store.payment(paymentId),
                  payment.credentialId == request.credentialId else {
                throw AccountError(.challengeInvalid, "the challenge is unknown, used, expired, or not for this credential; ask for a new one")
            }
            confirmed = payment
            return .payment(.init(id: payment.paymentId, amount: payment.amount, currency: payment.currency, payee: payment.payee),
                            origin: origin.value, challenge: opened.challenge, credentialId: request.credentialId)
        } then: { credential in
            let detail = confirmed.map { "\($0.paymentId): \($0.amount) \($0.currency) to \($0.payee)" } ?? paymentId
            return [store.confirmStatement(paymentId),
                    store.guardedAudit(AuditRecord(event: "payment", outcome: "ok", username: credential.username,
                                                   deviceId: credential.deviceId, detail: detail, address: address))]
        }
        // One challenge per payment, consumed once: a confirmed payment cannot get here again.
        guard let payment = confirmed, rows.first?.isEmpty == false else {
            throw AccountError(.paymentNotPending, "payment \(paymentId) is not pending")
        }
        return Payment(paymentId: payment.paymentId, amount: payment.amount, currency: payment.currency, payee: payment.payee,
                       status: "confirmed", challenge: nil)
    }

    /// `GET /v1/audit`: the session user's own entries.
    func auditLog(session: SessionInfo) async throws -> AuditLog {
        AuditLog(entries: try await store.auditLog(username: session.username, limit: 200))
    }
}
