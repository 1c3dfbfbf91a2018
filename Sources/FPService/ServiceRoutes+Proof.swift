import FPAuthentication
import FPLocalAPIEngine
import Foundation
import Hummingbird
import NIOCore

extension ServiceRoutes {
    /// `POST /v1/evaluations` with `identify-and-prove`: who is at the reader, and, in the same
    /// touch, their login key for the named server signs its kiosk challenge
    /// (``AuthenticationContext/identifyAndProve(_:reason:protection:options:)``). The kiosk
    /// group and the admin group may; the request names no user and no key: both are the
    /// identified user's.
    func identifyAndProve(_ body: EvaluationRequest, _ caller: Caller, _ channel: any Channel) async throws -> Response {
        guard body.user == nil else {
            throw ServiceRefusal.badRequest("identify-and-prove takes no 'user': the key that signs is the identified user's")
        }
        guard let wire = body.proof else {
            throw ServiceRefusal.badRequest("identify-and-prove needs 'proof': {\"purpose\": \"kiosk-login\", \"origin\": …, \"challenge\": …}")
        }
        guard body.policy == nil, body.fingers == nil else {
            throw ServiceRefusal.badRequest("identify-and-prove takes no 'policy' or 'fingers': it identifies among everyone enrolled")
        }
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .identifyAndProve)
        let request = try wire.checked()
        guard request.purpose == .kioskLogin else {
            // Refused before the reader is taken; the engine refuses it too (identifyAndProve).
            throw ServiceRefusal.badRequest("identify-and-prove signs only 'kiosk-login'; 'kiosk-pin-login' is the PIN pad's (passcode-check)")
        }
        let configuration = try Self.scanConfiguration(body, target)
        let reason = body.reason ?? "Log in to \(request.origin)"
        let options = BiometricOptions(maxFailedMatches: body.attempts, claimedUser: try Self.claimedUser(body))
        return try stream.response(caller: caller, channel: channel) { operation, send in
            defer { readers.claims.disarm(operation) }
            // The reader is held for the identification's scans; the signature after it needs none.
            let context = try await evaluationContext(body, target, required: true, configuration: configuration, operation: operation,
                                                      arming: true)
            let proof = try await Self.forwardingEvents(of: context, to: send) {
                try await context.identifyAndProve(request, reason: reason, protection: .service, options: options)
            }
            let identity = try context.keys(protection: .service).identity()
            return try JSONValue(encoding: EvaluationResult(proof.success,
                                                            proof: WireProof(proof, protection: .service, identityKeyPem: identity)))
        }
    }

    /// The target's configuration with the request's scan timeout, at most ``ClientScanTimeout``'s
    /// bound, and its attempts checked.
    static func scanConfiguration(_ body: EvaluationRequest, _ target: RequestTarget) throws -> AuthConfiguration {
        var settings = try target.configuration()
        settings.scanTimeoutSeconds = try ClientScanTimeout.seconds(requested: body.timeoutSeconds, configured: settings.scanTimeoutSeconds)
        if let attempts = body.attempts, attempts < 1 { throw ServiceRefusal.badRequest("attempts must be at least 1") }
        return settings
    }
}
