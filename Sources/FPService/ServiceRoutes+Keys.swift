import FPAuthentication
import FPLocalAPIEngine
import Foundation
import Hummingbird
import NIOCore

/// Keys released by a match, held by the service: the private keys never leave it.
extension ServiceRoutes {
    func registerKeys(on api: RouterGroup<ServiceRequestContext>) {
        api.get("keys") { request, context in try await handle(context) { caller in try await keyList(request, caller) } }
        api.post("keys") { request, context in try await handle(context) { caller in try await createKey(request, caller) } }
        api.post("keys/delete") { request, context in try await handle(context) { caller in try await deleteKey(request, caller) } }
        api.get("keys/attestation") { request, context in
            try await handle(context) { caller in try await attestation(request, caller) }
        }
        api.get("identity") { request, context in
            try await handle(context) { caller in
                let target = try query(request, caller: caller, purpose: .manage)
                let identity = try await Self.blocking { try vault(target).identity() }
                return JSONBodies.ok(IdentityResult(protection: .service, identityKeyPem: identity))
            }
        }
        api.post("identity/activate") { request, context in
            try await handle(context) { caller in try await activate(request, caller) }
        }
        api.post("keys/sign") { request, context in
            try await handle(context) { caller in try await sign(request, caller, context.channel) }
        }
    }

    private func vault(_ target: RequestTarget, turn: ServiceReaderTurn? = nil,
                       configuration: AuthConfiguration? = nil) throws(AuthError) -> KeyVault {
        let settings: AuthConfiguration
        if let configuration { settings = configuration } else { settings = try target.configuration() }
        return context(target, turn: turn, configuration: settings)
            .keys(protection: .service)
    }

    private func keyList(_ request: Request, _ caller: Caller) async throws -> Response {
        let target = try query(request, caller: caller, purpose: .manage, extra: [])
        let keys = try await Self.blocking { try vault(target).list().map(WireKey.init) }
        return JSONBodies.ok(KeyList(user: target.user, protection: .service, keys: keys))
    }

    private func createKey(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(KeyCreateRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .manage)
        let result = try await Self.blocking {
            let vault = try vault(target)
            let key = try vault.create(label: body.label, accessControl: body.accessControl)
            return KeyResult(protection: .service, key: WireKey(key), identityKeyPem: try vault.identity(), tpm: try tpmEvidence(target))
        }
        return JSONBodies.ok(result)
    }

    private func deleteKey(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(KeyLabelRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .manage)
        try await Self.blocking { try vault(target).delete(label: body.label) }
        return JSONBodies.ok(["user": JSONValue.string(target.user), "label": .string(body.label)])
    }

    private func attestation(_ request: Request, _ caller: Caller) async throws -> Response {
        guard let label = request.uri.queryParameters["label"].map(String.init) else {
            throw ServiceRefusal.badRequest("missing query parameter 'label'")
        }
        let target = try query(request, caller: caller, purpose: .manage, extra: ["label"])
        let result = try await Self.blocking {
            let vault = try vault(target)
            let key = WireKey(try vault.describe(label: label))
            return KeyResult(protection: .service, key: key, identityKeyPem: try vault.identity(), tpm: try tpmEvidence(target))
        }
        return JSONBodies.ok(result)
    }

    private func sign(_ request: Request, _ caller: Caller, _ channel: any Channel) async throws -> Response {
        let body = try await JSONBodies.decode(KeySignRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .manage)
        guard let data = Data(base64Encoded: body.dataBase64) else { throw ServiceRefusal.badRequest("dataBase64 is not base64") }
        let configuration = try target.configuration()
        let reason = body.reason ?? "Sign with your key"
        return try stream.response(caller: caller, channel: channel) { operation, send in
            // The reader is taken for the scans only: a passcode-only key takes none, and a
            // user-presence key's passcode fallback holds none while its prompt waits. Keys that
            // need a match fail in the engine when there is no reader.
            let turn = try await readers.turn(target, required: false, wait: true, timeout: configuration.scanTimeoutSeconds)
            let vault = try vault(target, turn: turn, configuration: configuration)
            operation.attach(vault.context)
            let signed = try await Self.forwardingEvents(of: vault.context, to: send) {
                try await vault.sign(label: body.label, data: data, reason: reason, prompt: operation.prompt)
            }
            return try JSONValue(encoding: WireSignature(signed, protection: .service))
        }
    }
}
