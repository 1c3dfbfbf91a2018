import FPAuthentication
import FPLocalAPIEngine
import Foundation
import Hummingbird

/// The local API's routes; each authorises from the peer credentials, then calls the engine.
/// See `api/fpbridged.openapi.yaml`.
struct ServiceRoutes: Sendable {
    let service: ServiceConfiguration
    let registry: OperationRegistry
    let readers: ServiceReaders
    let sleep: SleepHandling
    let printCaches: PrintCaches
    /// The PIN pad's counts for names with no passcode and each kiosk's budget.
    let pinPad: PinPad
    /// Whether fprintd's D-Bus API is served, and why not (status).
    let fprintdStatus: @Sendable () -> String

    var stream: OperationStream { OperationStream(registry: registry) }

    func register(on router: Router<ServiceRequestContext>) {
        let api = router.group(RouterPath(LocalAPI.prefix))
        api.get("service") { _, context in try await handle(context) { caller in JSONBodies.ok(serviceInfo(caller)) } }
        api.get("status") { request, context in try await handle(context) { caller in try await status(request, caller) } }
        api.get("reader") { request, context in try await handle(context) { caller in try await reader(request, caller) } }
        api.get("prints") { request, context in try await handle(context) { caller in try prints(request, caller) } }
        api.post("prints/delete") { request, context in try await handle(context) { caller in try await delete(request, caller) } }
        api.post("can-evaluate") { request, context in try await handle(context) { caller in try await canEvaluate(request, caller) } }
        api.post("evaluations") { request, context in
            try await handle(context) { caller in try await evaluation(request, caller, context.channel) }
        }
        api.post("enrollments") { request, context in
            try await handle(context) { caller in try await enrollment(request, caller, context.channel) }
        }
        api.post("passcode-check") { request, context in
            try await handle(context) { caller in try await passcodeCheck(request, caller) }
        }
        api.post("passcode") { request, context in
            try await handle(context) { caller in try await passcode(request, caller, context.channel) }
        }
        registerKeys(on: api)
        api.post("repair") { request, context in try await handle(context) { caller in try await repair(request, caller) } }
        api.post("password-proved") { request, context in
            try await handle(context) { caller in try await passwordProved(request, caller) }
        }
        api.post("lock") { request, context in
            try await handle(context) { caller in try await lockBiometry(request, caller) }
        }
        api.post("operations/:id/:button") { request, context in
            try await handle(context) { caller in try await press(request, context, caller) }
        }
    }

    /// Authorises the connection, runs the route, and turns every refusal into the `{"ok": false}` body.
    func handle(_ context: ServiceRequestContext, _ body: (Caller) async throws -> Response) async throws -> Response {
        do {
            let caller = try Caller(try await PeerCredentials.of(context.channel), configuration: service)
            return try await body(caller)
        } catch let refusal as ServiceRefusal {
            return JSONBodies.refusal(refusal)
        } catch let error as AuthError {
            return JSONBodies.failure(error)
        }
    }

    /// An engine context for the request's target, with the service's print cache.
    func context(_ target: RequestTarget, reader: (any FingerprintReader)?, configuration: AuthConfiguration) -> AuthenticationContext {
        target.context(reader: reader, configuration: configuration, printCaches: printCaches, tpm: service.tpm)
    }

    /// An engine context that takes the target's reader only for the steps that use it (``ServiceReaderTurn``):
    /// none is held while a passcode prompt waits, before the scans, after them or without any.
    func context(_ target: RequestTarget, turn: ServiceReaderTurn?, configuration: AuthConfiguration) -> AuthenticationContext {
        target.context(reader: turn?.candidate, turn: turn, configuration: configuration, printCaches: printCaches, tpm: service.tpm)
    }

    // MARK: - Reading state

    private func serviceInfo(_ caller: Caller) -> JSONValue {
        ["mode": .string(service.mode), "testMode": .bool(service.testMode), "version": .string(ServiceVersion.current),
         "caller": ["user": .string(caller.user), "uid": .int(Int(caller.credentials.uid)),
                    "admin": .bool(caller.isAdmin), "kiosk": .bool(caller.isKiosk)],
         "operations": .int(registry.count), "sleepWatch": .string(sleep.watching.withLock { $0 }),
         "sleeping": .bool(sleep.isSleeping), "fprintdBus": .string(fprintdStatus()),
         "printReadsSaved": .int(printCaches.savedReads)]
    }

    func query(_ request: Request, caller: Caller, purpose: RequestTarget.Purpose,
               extra: Set<String> = []) throws -> RequestTarget {
        let parameters = request.uri.queryParameters
        let known = Set(["user", "reader", "stateDirectory"]).union(extra)
        if let unknown = parameters.map({ String($0.key) }).first(where: { !known.contains($0) }) {
            throw ServiceRefusal.badRequest("unknown query parameter '\(unknown)'")
        }
        return try RequestTarget(user: parameters["user"].map(String.init), reader: parameters["reader"].map(String.init),
                                 stateDirectory: parameters["stateDirectory"].map(String.init),
                                 caller: caller, service: service, purpose: purpose)
    }

    private func status(_ request: Request, _ caller: Caller) async throws -> Response {
        let target = try query(request, caller: caller, purpose: .manage)
        let context = context(target, reader: nil, configuration: try target.configuration())
        let report = try StatusReport(context: context, reader: await readers.peek(target),
                                      mode: service.mode, testMode: service.testMode)
        return JSONBodies.ok(report)
    }

    /// The reader and its heat, looked at without opening it or taking a turn: a kiosk reads
    /// this between scans to plan the next. It says nothing about any user, so anyone may ask.
    private func reader(_ request: Request, _ caller: Caller) async throws -> Response {
        let parameters = request.uri.queryParameters
        if let unknown = parameters.map({ String($0.key) }).first(where: { $0 != "reader" }) {
            throw ServiceRefusal.badRequest("unknown query parameter '\(unknown)'")
        }
        let target = try RequestTarget(user: nil, reader: parameters["reader"].map(String.init), stateDirectory: nil,
                                       caller: caller, service: service, purpose: .manage)
        guard let info = await readers.peek(target) else { return JSONBodies.ok(ReaderReport(reader: .absent)) }
        var report = ReaderReport.Reader(identity: info.identity.description, name: info.name, present: true,
                                         temperature: info.temperature, heat: info.heat)
        report.enrolling = readers.claims.enrollment(on: info.identity)
        return JSONBodies.ok(ReaderReport(reader: report))
    }

    private func prints(_ request: Request, _ caller: Caller) throws -> Response {
        let target = try query(request, caller: caller, purpose: .manage)
        do {
            let entries = try PrintStore(directory: target.stateDirectory).checkedEntries(user: target.user, reader: nil)
            return JSONBodies.ok(PrintList(user: target.user, entries: entries))
        } catch {
            throw AuthError(error)
        }
    }

    private func canEvaluate(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(CanEvaluateRequest.self, from: request)
        let policy = try Self.policy(body.policy)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .evaluate)
        let configuration = try target.configuration()
        let availability = try await readers.with(target, required: false, wait: false, timeout: 0) { reader in
            await context(target, reader: reader, configuration: configuration)
                .canEvaluate(policy)
        }
        return JSONBodies.ok(AvailabilityResult(user: target.user, availability))
    }

    /// The PIN pad: a named user's passcode, typed whole, checked at once (no reader, no turn);
    /// with `proof`, a right PIN also signs the server's kiosk PIN challenge with that user's login key.
    private func passcodeCheck(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(PasscodeCheckRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: body.proof == nil ? .pinPad : .pinPadProof)
        let proofRequest = try body.proof?.checked()
        let context = context(target, reader: nil, configuration: try target.configuration())
        // A kiosk's wrong PINs spend its budget; a user checking their own has only their limits.
        // An admin in the kiosk group is a kiosk here too: its pad is the lobby's whoever runs it
        // (issue 40: the demo's kiosk, in both groups, was never paced).
        let kiosk = caller.isKiosk ? caller.credentials.uid : nil
        let passcode = Passcode(body.passcode)
        if body.unmapped == true {
            try await pinPad.refuseUnmapped(passcode, context: context, kiosk: kiosk)
        }
        guard let proofRequest else {
            let success = try await pinPad.check(passcode, context: context, kiosk: kiosk)
            return JSONBodies.ok(PasscodeCheckResult(user: success.user))
        }
        let proof = try await pinPad.prove(passcode, request: proofRequest, context: context, kiosk: kiosk, protection: .service)
        let identity = try context.keys(protection: .service).identity()
        return JSONBodies.ok(PasscodeCheckResult(user: proof.success.user,
                                                 proof: WireProof(proof, protection: .service, identityKeyPem: identity)))
    }

    /// Damaged state is the administrator's: root and the admin group only, since repairing
    /// replaces a damaged counter and may remove a user's passcode and prints.
    private func repair(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(RepairRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .repair)
        return JSONBodies.ok(try RepairResult.run(target.stateDirectory, yes: body.yes ?? false))
    }

    /// A PAM stack proved a user's login password: root only, since whoever may say it lifts
    /// anyone's lockout. The kernel's peer credentials say who is calling, not the body.
    private func passwordProved(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(PasswordProofRequest.self, from: request)
        guard body.user != nil else {
            // Refused as the table says before the body's shape is judged: a non-root caller learns nothing more.
            if let refusal = ServiceRights.refusal(.reportPassword, by: caller, for: "", service: service) { throw refusal }
            throw ServiceRefusal.badRequest("missing field 'user' (whose password was proved)")
        }
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .reportPassword)
        let context = context(target, reader: nil, configuration: try target.configuration())
        return JSONBodies.ok(PasswordProofResult(user: target.user, lifted: try context.passwordProved()))
    }

    /// iOS's remote lock: root or the user (the table), then the engine records it.
    private func lockBiometry(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONBodies.decode(BiometryLockRequest.self, from: request)
        let target = try RequestTarget(body, caller: caller, service: service, purpose: .lockBiometry)
        try context(target, reader: nil, configuration: try target.configuration()).lockBiometry()
        return JSONBodies.ok(BiometryLockResult(user: target.user))
    }

    static func policy(_ name: String?) throws(ServiceRefusal) -> AuthPolicy {
        guard let policy = AuthPolicy(rawValue: name ?? AuthPolicy.biometrics.rawValue) else {
            throw .badRequest("unknown policy '\(name ?? "")'; use biometrics or device-owner")
        }
        return policy
    }
}
