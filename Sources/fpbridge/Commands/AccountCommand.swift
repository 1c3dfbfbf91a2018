import ArgumentParser
import FPAuthentication
import FPCore
import FPLocalAPI
import FPTerminal
import FingerprintLogin
import FoundationEssentials
import Glibc

/// Fingerprint login and payment against `fpbridge-server` (seeds 000 and 002).
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Register, bind this device, log in and pay with a finger at an fpbridge-server.",
        discussion: """
        'bind' logs in with the password and registers a new fingerprint key of this device (biometry-current-set: \
        it signs only after a match and is invalidated when a finger is enrolled or removed). 'login' and 'pay' sign \
        the server's single-use challenge with it after a match; 'pay' shows amount and payee in the prompt. When the \
        key was invalidated, or the server froze or blocked it, log in with the password and bind again. The password \
        alone binds only an account's first device, or this device (the same local user of this machine) again: \
        another waits for 'approve' on a bound device, or takes a one-time binding code (--binding-code) that \
        'invite' makes on a bound device with a finger, or that the server's operator gives. Sessions for 'devices', 'pay' and 'audit' come \
        from FPBRIDGE_ACCOUNT_TOKEN, --token-fd or --token-stdin (never the command line, where every local user \
        can read them), or a password prompt.
        """,
        subcommands: [Register.self, Bind.self, Approve.self, Invite.self, Login.self, Devices.self, Unbind.self, Pay.self, Audit.self])

    /// Options every account command takes.
    struct ServerOptions: ParsableArguments {
        @Option(help: "The server's URL (env FPBRIDGE_ACCOUNT_SERVER).")
        var server: String?
        @Option(help: "The account's user name (default: the user).")
        var account: String?
        @Option(help: "A PEM file of CA certificates to trust for the server instead of the system's.")
        var caFile: String?
        @Flag(help: "Read the password from standard input (one line) instead of a no-echo prompt.")
        var passwordStdin = false

        /// `text` as a login server's URL: http(s) with a host, else nil.
        static func serverURL(_ text: String) -> URL? {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else { return nil }
            return url
        }

        func client(_ options: GlobalOptions) throws -> FingerprintLogin {
            let text = server ?? ProcessEnvironment.value("FPBRIDGE_ACCOUNT_SERVER")
            guard let text, let url = Self.serverURL(text) else {
                throw AuthError(.invalidInput, "give the server as --server https://HOST[:PORT] (or FPBRIDGE_ACCOUNT_SERVER)")
            }
            return FingerprintLogin(server: url, keyring: KeyOperations(options: options), trustedCertificates: caFile)
        }

        func username(_ options: GlobalOptions) -> String { account ?? options.userName }

        func password(_ options: GlobalOptions, prompt: String = "Password: ") async throws -> String {
            let outcome = await SecretInput.read(passwordStdin ? .standardInput : .terminal(prompt: prompt), timeout: .seconds(300))
            guard case .entered(let secret) = outcome else {
                throw AuthError(.userCancel, passwordStdin ? "no password on standard input" : "no password entered")
            }
            return secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }

        /// A session: FPBRIDGE_ACCOUNT_TOKEN, --token-fd, --token-stdin, or a password login.
        func session(_ token: TokenOptions, _ options: GlobalOptions, _ client: FingerprintLogin) async throws -> String {
            if let token = try await token.read() { return token }
            return try await AccountCommand.run {
                try await client.passwordLogin(username: username(options), password: try await password(options)).token
            }
        }
    }

    /// Where a session token comes from: never argv, which `ps` shows every local user.
    struct TokenOptions: ParsableArguments {
        @Option(help: .hidden)
        var token: String?
        @Option(help: "Read the session token from this open file descriptor (one line).")
        var tokenFd: Int32?
        @Flag(help: "Read the session token from standard input (one line).")
        var tokenStdin = false

        func validate() throws {
            if token != nil {
                throw ValidationError("a session token on the command line is visible to every local user (ps, /proc); "
                                      + "give it in FPBRIDGE_ACCOUNT_TOKEN, with --token-fd N or with --token-stdin")
            }
            if tokenFd != nil && tokenStdin { throw ValidationError("give --token-fd or --token-stdin, not both") }
            if let fd = tokenFd, fd < 0 || fcntl(fd, F_GETFD) < 0 { throw ValidationError("--token-fd \(fd) is not an open file descriptor") }
        }

        /// The token, nil when none was given.
        func read() async throws -> String? {
            let source: SecretInput.Source
            if let tokenFd { source = .descriptor(tokenFd) } else if tokenStdin { source = .standardInput } else {
                return ProcessEnvironment.value("FPBRIDGE_ACCOUNT_TOKEN")
            }
            guard case .entered(let secret) = await SecretInput.read(source, timeout: .seconds(30)) else {
                throw AuthError(.invalidInput, tokenStdin ? "no session token on standard input" : "no session token on descriptor \(tokenFd ?? -1)")
            }
            return secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Runs a client call; its errors become the command's (exit 1 refused, 2 bad input, 3 unreachable).
    static func run<T>(_ work: () async throws -> T) async throws -> T {
        do { return try await work() } catch let error as FingerprintLoginError {
            throw failure(error)
        }
    }

    static func failure(_ error: FingerprintLoginError) -> CommandFailure {
        switch error {
        case .device(let error):
            var message = error.message
            if error.code == .keyInvalidated {
                message += "; a finger was enrolled or removed since this device was bound: log in with the password and bind again (fpbridge account bind)"
            }
            return CommandFailure(error: AuthError(error.code, message, retryAfter: error.retryAfter), fields: [:])
        case .server(let refusal):
            var server: [String: JSONValue] = ["code": .string(refusal.code.rawValue), "message": .string(refusal.message)]
            if let left = refusal.attemptsLeft { server["attemptsLeft"] = .int(left) }
            if let retryAfter = refusal.retryAfter { server["retryAfter"] = .int(retryAfter) }
            var message = "the server refused: \(refusal.message) [\(refusal.code.rawValue)]"
            if refusal.code.needsRebinding { message += " (fpbridge account bind)" }
            let code: AuthErrorCode = switch refusal.code {
            case .invalidRequest, .payloadTooLarge, .notFound, .usernameTaken: .invalidInput
            case .unavailable: .readerFailure
            default: .authenticationFailed
            }
            return CommandFailure(error: AuthError(code, message, retryAfter: refusal.retryAfter.map(Double.init)),
                                  fields: ["server": .object(server)])
        case .notBound(let message):
            return CommandFailure(error: AuthError(.notFound, message), fields: [:])
        case .transport(let message):
            return CommandFailure(error: AuthError(.biometryNotAvailable, message), fields: [:])
        }
    }

    static func json(_ device: BoundDevice) -> JSONValue {
        ["deviceId": .string(device.deviceId), "name": .string(device.name), "credentialId": .string(device.credentialId),
         "status": .string(device.status), "accessControl": .string(device.accessControl), "protection": .string(device.protection),
         "boundAt": .int(Int(device.boundAt)), "lastUsedAt": device.lastUsedAt.map { .int(Int($0)) } ?? .null,
         "localUser": device.localUser.map { .string($0) } ?? .null]
    }

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "register", abstract: "Create an account (asks for its password twice).")
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let client = try server.client(options)
            let username = server.username(options)
            let password = try await server.password(options)
            if !server.passwordStdin {
                guard try await server.password(options, prompt: "Again: ") == password else {
                    throw AuthError(.invalidInput, "the two passwords differ")
                }
            }
            try await AccountCommand.run { try await client.register(username: username, password: password) }
            options.console.success("Registered \(username) at \(client.origin).", ["account": .string(username), "server": .string(client.origin)])
        }
    }

    struct Bind: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bind",
            abstract: "Bind this device: the password, then a new fingerprint key registered with its attestation.",
            discussion: """
            The password alone binds an account's first device, or this device again. Another device prints a \
            pairing code and waits until a bound device approves it ('fpbridge account approve --pairing-code CODE' \
            there, with a finger), or takes a one-time code from a bound device ('fpbridge account invite' there) or \
            from the server's operator (--binding-code, read without echo, or from FPBRIDGE_ACCOUNT_BINDING_CODE, or as the second line of standard input with --password-stdin).
            """)
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions
        @Option(help: "A name for this device (default: the host name).")
        var deviceName: String?
        @Option(help: "When binding a device again: the id the server gave it (it then insists on the same identity key); write --device-id=ID for an id that starts with '-'.")
        var deviceId: String?
        @Flag(help: "Ask for a one-time binding code ('fpbridge account invite' on a bound device, or the server's operator) instead of waiting for a bound device's approval.")
        var bindingCode = false
        @Flag(help: "Do not wait for approval: print the pairing code and exit (run bind again after approval to see it bound).")
        var noWait = false

        func run() async throws {
            let client = try server.client(options)
            let username = server.username(options)
            let password = try await server.password(options)
            let code = try await self.code()
            let name = deviceName ?? ProcessInfo.processInfo.hostName
            let result = try await AccountCommand.run {
                try await client.bind(username: username, password: password, deviceName: name, deviceId: deviceId,
                                      bindingCode: code, requestApproval: code == nil)
            }
            let device: BoundDevice
            switch result {
            case .bound(let bound): device = bound
            case .waitingForApproval(let pending, let session):
                let minutes = max(1, Int((Double(pending.expiresAt) / 1000 - Date().timeIntervalSince1970) / 60))
                options.console.note("""
                    \(username) has a bound device already. On it, approve this one within \(minutes) minutes:
                        fpbridge account approve --pairing-code \(pending.pairingCode)
                    (or run 'fpbridge account invite' there and bind with --binding-code).
                    """)
                if noWait {
                    options.console.success("Waiting for approval: pairing code \(pending.pairingCode).",
                                            ["account": .string(username), "pairingCode": .string(pending.pairingCode),
                                             "pendingId": .string(pending.pendingId), "status": "pending"])
                    return
                }
                options.console.note("Waiting…")
                device = try await AccountCommand.run { try await client.waitForApproval(pending, username: username, session: session) }
            }
            options.console.success("Bound '\(device.name)' (device \(device.deviceId)) to \(username) at \(client.origin); "
                                    + "log in with 'fpbridge account login'.",
                                    ["account": .string(username), "device": AccountCommand.json(device)])
        }

        /// The binding code, when asked for: the environment, standard input's next line, or a no-echo prompt.
        private func code() async throws -> String? {
            if let code = ProcessEnvironment.value("FPBRIDGE_ACCOUNT_BINDING_CODE") { return code }
            guard bindingCode else { return nil }
            let outcome = await SecretInput.read(server.passwordStdin ? .standardInput : .terminal(prompt: "Binding code: "),
                                                 timeout: .seconds(300))
            guard case .entered(let secret) = outcome else { throw AuthError(.userCancel, "no binding code entered") }
            return secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "approve",
            abstract: "Approve a new device of the account from this bound one, with a finger.",
            discussion: """
            The new device shows a pairing code while 'fpbridge account bind' waits; give it here. The prompt names \
            the new device, and the signature covers exactly that request, its name and its key.
            """)
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions
        @Option(help: "The six digits the new device shows.")
        var pairingCode: String

        func run() async throws {
            let client = try server.client(options)
            let username = server.username(options)
            let device = try await AccountCommand.run { try await client.approve(username: username, pairingCode: pairingCode) }
            options.console.success("Approved '\(device.name)' (device \(device.deviceId)) for \(username).",
                                    ["account": .string(username), "device": AccountCommand.json(device)])
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invite",
            abstract: "Make a one-time binding code for a new device of the account, with a finger on this bound one.",
            discussion: """
            The new device binds with it ('fpbridge account bind --binding-code', which asks for it) without waiting \
            for approval. Anyone with the password can keep an account's approval slots full; nobody without a finger \
            on a bound device makes a code. It is valid as long as an approval waits (10 minutes by default), once.
            """)
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let client = try server.client(options)
            let username = server.username(options)
            let invitation = try await AccountCommand.run { try await client.invite(username: username) }
            let minutes = max(1, (invitation.expiresAt - Int64(Date().timeIntervalSince1970 * 1000)) / 60_000)
            options.console.success("One-time binding code for a new device of \(username) (about \(minutes) minutes): \(invitation.code)\n"
                                    + "On the new device: fpbridge account bind --binding-code (it asks for the code).",
                                    ["account": .string(username), "code": .string(invitation.code),
                                     "expiresAt": .int(Int(invitation.expiresAt))])
        }
    }

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Log in with a finger: the server's challenge signed after a match. Prints the session token.")
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions
        @Flag(help: "Log in with the password instead (a session that may bind and unbind devices).")
        var password = false

        func run() async throws {
            let client = try server.client(options)
            let username = server.username(options)
            let session: SessionToken
            if password {
                let secret = try await server.password(options)
                session = try await AccountCommand.run { try await client.passwordLogin(username: username, password: secret) }
            } else {
                session = try await AccountCommand.run { try await client.login(username: username) }
            }
            options.console.success("Logged in as \(session.username) (\(session.kind)).\n\(session.token)",
                                    ["account": .string(session.username), "kind": .string(session.kind),
                                     "token": .string(session.token), "expiresAt": .int(Int(session.expiresAt))])
        }
    }

    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "devices", abstract: "List the account's bound devices.")
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions
        @OptionGroup var token: TokenOptions

        func run() async throws {
            let client = try server.client(options)
            let session = try await server.session(token, options, client)
            let devices = try await AccountCommand.run { try await client.devices(session: session) }
            // The local user tells apart the people of one shared machine ("-": bound before the server kept it).
            let lines = devices.map { "\($0.deviceId)\t\($0.name)\t\($0.status)\t\($0.accessControl)\t\($0.protection)\t\($0.localUser ?? "-")" }
            options.console.success(devices.isEmpty ? "No devices bound." : lines.joined(separator: "\n"),
                                    ["devices": .array(devices.map(AccountCommand.json))])
        }
    }

    struct Unbind: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unbind", abstract: "Unbind a device (needs the password).")
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions
        @Option(help: "The device to unbind ('fpbridge account devices' lists them; write --device-id=ID for an id that starts with '-').")
        var deviceId: String

        func run() async throws {
            let client = try server.client(options)
            let username = server.username(options)
            let password = try await server.password(options)
            try await AccountCommand.run {
                let session = try await client.passwordLogin(username: username, password: password)
                try await client.unbind(deviceId: deviceId, username: username, session: session.token)
            }
            options.console.success("Unbound device \(deviceId) of \(username).", ["account": .string(username), "deviceId": .string(deviceId)])
        }
    }

    struct Pay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pay",
            abstract: "Pay with a finger: the prompt shows amount and payee; the signature covers exactly this payment.")
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions
        @Option(help: "The amount, with at most two decimals (12.50).")
        var amount: String
        @Option(help: "ISO 4217 currency code.")
        var currency = "EUR"
        @Option(help: "Who is paid.")
        var payee: String
        @OptionGroup var token: TokenOptions

        func run() async throws {
            let client = try server.client(options)
            let username = server.username(options)
            let session = try await server.session(token, options, client)
            let payment = try await AccountCommand.run {
                try await client.pay(username: username, amount: amount, currency: currency, payee: payee, session: session)
            }
            options.console.success("Paid \(payment.amount) \(payment.currency) to \(payment.payee) (payment \(payment.paymentId), \(payment.status)).",
                                    ["paymentId": .string(payment.paymentId), "amount": .string(payment.amount),
                                     "currency": .string(payment.currency), "payee": .string(payment.payee), "status": .string(payment.status)])
        }
    }

    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "audit", abstract: "Show the account's audit log at the server, newest first.")
        @OptionGroup var options: GlobalOptions
        @OptionGroup var server: ServerOptions
        @OptionGroup var token: TokenOptions

        func run() async throws {
            let client = try server.client(options)
            let session = try await server.session(token, options, client)
            let entries = try await AccountCommand.run { try await client.audit(session: session) }
            let lines = entries.map { entry in
                let time = Date(timeIntervalSince1970: Double(entry.at) / 1000).formatted(.iso8601)
                return "\(time)\t\(entry.event)\t\(entry.outcome)\t\(entry.detail)"
            }
            options.console.success(lines.joined(separator: "\n"),
                                    ["entries": .array(entries.map { entry in
                                        ["at": .int(Int(entry.at)), "event": .string(entry.event), "outcome": .string(entry.outcome),
                                         "detail": .string(entry.detail), "deviceId": .optional(entry.deviceId)]
                                    })])
        }
    }
}
