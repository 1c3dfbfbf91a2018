import FPAccountAPI
import Foundation
import Hummingbird
import HTTPTypes
import Logging

/// The server's HTTP API (`api/fpbridge-server.openapi.yaml`): each route decodes, asks
/// ``AccountService``, and encodes; every error becomes its documented status.
struct AccountRoutes {
    let service: AccountService

    func register(on router: Router<AccountRequestContext>) {
        let v1 = router.group("v1")
        v1.get("health") { _, context in
            answer(context) { Replies.ok(Health(database: service.store.database.dialect.rawValue, origin: service.origin.value)) }
        }
        v1.post("accounts") { request, context in
            await answer(context) {
                let username = try await service.register(try await Replies.decode(PasswordRequest.self, from: request), address: address(request, context))
                return Replies.ok(Registered(username: username), status: .created)
            }
        }
        v1.post("sessions") { request, context in
            await answer(context) {
                Replies.ok(try await service.passwordLogin(try await Replies.decode(PasswordRequest.self, from: request), address: address(request, context)))
            }
        }
        v1.get("me") { request, context in
            await answer(context) { Replies.ok(try await service.session(bearer: bearer(request))) }
        }
        v1.get("devices") { request, context in
            await answer(context) { Replies.ok(try await service.devices(session: try await service.session(bearer: bearer(request)))) }
        }
        v1.post("devices") { request, context in
            await answer(context) {
                let session = try await service.session(bearer: bearer(request))
                let bind = try await Replies.decode(BindRequest.self, from: request)
                switch try await service.bind(bind, session: session, address: address(request, context)) {
                case .bound(let device): return Replies.ok(device, status: .created)
                case .pending(let pending): return Replies.ok(pending, status: .accepted)
                }
            }
        }
        v1.post("devices/tpm-credentials") { request, context in
            await answer(context) {
                let session = try await service.session(bearer: bearer(request))
                return Replies.ok(try await service.tpmCredential(try await Replies.decode(TPMCredentialRequest.self, from: request),
                                                                  session: session), status: .created)
            }
        }
        v1.get("devices/pending/:pending") { request, context in
            await answer(context) {
                let session = try await service.session(bearer: bearer(request))
                return Replies.ok(try await service.pendingBinding(context.parameters.get("pending") ?? "", session: session))
            }
        }
        v1.post("approvals/challenges") { request, context in
            await answer(context) {
                Replies.ok(try await service.approvalChallenge(try await Replies.decode(ApprovalChallengeRequest.self, from: request),
                                                               address: address(request, context)), status: .created)
            }
        }
        v1.post("approvals") { request, context in
            await answer(context) {
                Replies.ok(try await service.approve(try await Replies.decode(AssertionRequest.self, from: request),
                                                     address: address(request, context)), status: .created)
            }
        }
        v1.post("invitations/challenges") { request, context in
            await answer(context) {
                Replies.ok(try await service.invitationChallenge(try await Replies.decode(ChallengeRequest.self, from: request),
                                                                 address: address(request, context)), status: .created)
            }
        }
        v1.post("invitations") { request, context in
            await answer(context) {
                Replies.ok(try await service.invite(try await Replies.decode(AssertionRequest.self, from: request),
                                                    address: address(request, context)), status: .created)
            }
        }
        v1.delete("devices/:device") { request, context in
            await answer(context) {
                let session = try await service.session(bearer: bearer(request))
                try await service.unbind(context.parameters.get("device") ?? "", session: session, address: address(request, context))
                return Replies.ok(Unbound(deviceId: context.parameters.get("device") ?? ""))
            }
        }
        v1.post("challenges") { request, context in
            await answer(context) {
                Replies.ok(try await service.loginChallenge(try await Replies.decode(ChallengeRequest.self, from: request),
                                                            address: address(request, context)), status: .created)
            }
        }
        v1.post("logins") { request, context in
            await answer(context) {
                Replies.ok(try await service.login(try await Replies.decode(AssertionRequest.self, from: request), address: address(request, context)))
            }
        }
        v1.post("kiosk/challenges") { request, context in
            await answer(context) {
                Replies.ok(try await service.kioskChallenge(try await Replies.decode(KioskChallengeRequest.self, from: request),
                                                            address: address(request, context)), status: .created)
            }
        }
        v1.post("kiosk/logins") { request, context in
            await answer(context) {
                Replies.ok(try await service.kioskLogin(try await Replies.decode(KioskLoginRequest.self, from: request),
                                                        address: address(request, context)))
            }
        }
        v1.post("kiosk/pin-logins") { request, context in
            await answer(context) {
                Replies.ok(try await service.kioskPinLogin(try await Replies.decode(KioskLoginRequest.self, from: request),
                                                           address: address(request, context)))
            }
        }
        v1.post("payments") { request, context in
            await answer(context) {
                let session = try await service.session(bearer: bearer(request))
                let payment = try await Replies.decode(PaymentRequest.self, from: request)
                return Replies.ok(try await service.createPayment(payment, session: session, address: address(request, context)), status: .created)
            }
        }
        v1.post("payments/:payment/confirm") { request, context in
            await answer(context) {
                let assertion = try await Replies.decode(AssertionRequest.self, from: request)
                return Replies.ok(try await service.confirmPayment(context.parameters.get("payment") ?? "", assertion,
                                                                   address: address(request, context)))
            }
        }
        v1.get("audit") { request, context in
            await answer(context) { Replies.ok(try await service.auditLog(session: try await service.session(bearer: bearer(request)))) }
        }
    }

    /// The client's address for limits and the audit log (``ClientAddress``).
    private func address(_ request: Request, _ context: AccountRequestContext) -> String? {
        let forwarded = request.headers[values: Self.forwardedFor]
        return ClientAddress.resolve(peer: context.address, forwardedFor: forwarded.isEmpty ? nil : forwarded.joined(separator: ","),
                                     trustedProxies: service.trustedProxies)
    }

    private static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    private func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    private func answer(_ context: AccountRequestContext, _ work: () async throws -> Response) async -> Response {
        do { return try await work() } catch { return Replies.failure(error, logger: context.logger) }
    }

    private func answer(_ context: AccountRequestContext, _ work: () throws -> Response) -> Response {
        do { return try work() } catch { return Replies.failure(error, logger: context.logger) }
    }
}

/// `GET /v1/health`.
struct Health: Codable, Sendable {
    let database: String
    let origin: String
}

/// `POST /v1/accounts`.
struct Registered: Codable, Sendable {
    let username: String
}

/// `DELETE /v1/devices/{id}`.
struct Unbound: Codable, Sendable {
    let deviceId: String
}
