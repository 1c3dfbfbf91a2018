import FPAuthentication
import FPLocalAPI
import Foundation

/// What a request may touch, decided from the caller's credentials and the service's mode:
/// whose state, which reader, which state directory.
package struct RequestTarget: Sendable {
    /// What the request does, for the table of who may do what (``ServiceRights``).
    package typealias Purpose = ServiceRights.Action

    package var user: String
    package var selection: ReaderSelection
    package var stateDirectory: StateDirectory
    /// Who asked: a file the request names is read with their rights.
    package var caller: Caller
    /// Whether the request chose the reader (its fake script is then the client's file, read
    /// with the client's rights); the service's own `--reader` is read with the service's.
    private var readerFromRequest = false
    /// iOS's rules on when the password is needed again apply unless `config.json` turns them
    /// off: true in system mode, false with `--test-mode` (``AuthConfiguration/passwordRulesByDefault``).
    private var passwordRulesByDefault = false

    package init(_ request: some TargetedRequest, caller: Caller, service: ServiceConfiguration,
                 purpose: Purpose) throws(ServiceRefusal) {
        try self.init(user: request.user, reader: request.reader, stateDirectory: request.stateDirectory,
                      caller: caller, service: service, purpose: purpose)
    }

    package init(user requested: String?, reader: String?, stateDirectory: String?, caller: Caller,
                 service: ServiceConfiguration, purpose: Purpose) throws(ServiceRefusal) {
        let user = requested ?? caller.user
        if let refusal = ServiceRights.refusal(purpose, by: caller, for: user, service: service) { throw refusal }
        do { try PathComponent.validateUser(user) } catch {
            throw .badRequest("invalid user name '\(user)': \(error)")
        }
        self.user = user
        self.caller = caller
        passwordRulesByDefault = !service.testMode
        if let reader {
            let selection: ReaderSelection
            do { selection = try ReaderSelection(parsing: reader) } catch {
                throw .badRequest("invalid reader '\(reader)': \(error)")
            }
            if case .fake = selection, !service.testMode {
                throw .forbidden("the fake reader is refused: this service was not started with --test-mode")
            }
            self.selection = selection
            readerFromRequest = true
        } else {
            selection = service.reader
        }
        if let stateDirectory {
            guard service.testMode else {
                throw .forbidden("a state directory chosen by the client is refused: this service was not started with --test-mode")
            }
            // The service would use its own rights there (root's, say): creating folders and
            // writing files at a path another user names. Only a client with those rights
            // already (root, or the service's own user) may name one.
            guard caller.credentials.uid == 0 || caller.credentials.uid == geteuid() else {
                throw .forbidden("a state directory chosen by the client is accepted only from root or from the service's own user; "
                                 + "\(caller.user) uses the service's state directory")
            }
            guard stateDirectory.hasPrefix("/") else { throw .badRequest("stateDirectory must be an absolute path") }
            self.stateDirectory = StateDirectory(path: stateDirectory)
        } else {
            self.stateDirectory = service.stateDirectory
        }
    }

    /// The target of a call on the fprintd face: the user polkit let the caller act for, on the
    /// service's reader and state (the bus names neither). Who may act for whom was decided by
    /// the face's rules (``FprintdRules``), not by the groups.
    init(busUser user: String, caller: Caller, service: ServiceConfiguration) throws(ServiceRefusal) {
        do { try PathComponent.validateUser(user) } catch {
            throw .badRequest("invalid user name '\(user)': \(error)")
        }
        self.user = user
        self.caller = caller
        passwordRulesByDefault = !service.testMode
        selection = service.reader
        stateDirectory = service.stateDirectory
    }

    /// An engine context for this target, with the service's print cache; with a `turn`, it
    /// takes `reader` (unopened) through the turn for each step that uses it.
    func context(reader: (any FingerprintReader)?, turn: (any ReaderTurn)? = nil, configuration: AuthConfiguration,
                 printCaches: PrintCaches, tpm: String? = nil) -> AuthenticationContext {
        var environment = AuthEnvironment(user: user, reader: reader, stateDirectory: stateDirectory, configuration: configuration)
        environment.readerTurn = turn
        // Who holds a finger is told to those who may identify: it tells who is enrolled.
        environment.mayNameOtherUsersPrints = caller.isAdmin || caller.isKiosk
        environment.printCache = printCaches.cache(for: stateDirectory)
        environment.deviceIdentity = tpm.map { TPMDeviceIdentity(tcti: $0, directory: stateDirectory) }
        return AuthenticationContext(environment: environment)
    }

    /// The readers the selection sees, unopened; a fake reader's script is read with the caller's rights.
    package func candidates() async throws -> [any FingerprintReader] {
        guard readerFromRequest, case .fake(let path?) = selection else { return try await selection.candidates() }
        return [FakeReader(script: try ClientScript.load(path, caller: caller))]
    }

    /// The one reader to use, unopened (see ``candidates()``).
    package func reader() async throws -> any FingerprintReader {
        guard readerFromRequest, case .fake(.some) = selection else { return try await selection.reader() }
        return try await candidates()[0]
    }

    /// The limits and timeouts of the state directory (a damaged config.json is an error naming it).
    package func configuration() throws(AuthError) -> AuthConfiguration {
        try AuthConfiguration.load(from: stateDirectory, passwordRulesByDefault: passwordRulesByDefault)
    }
}
