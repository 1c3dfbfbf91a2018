import ArgumentParser
import FPAccountServer
import Foundation
import Logging

/// `fpbridge-server`: the command line of the reference login and payment server.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fpbridge-server",
        abstract: "The reference server for fingerprint login and payment with fpbridge keys (seeds 000 and 002).",
        discussion: "Without a subcommand it serves ('fpbridge-server serve --help' lists the options).",
        subcommands: [ServeCommand.self, DeviceCommand.self],
        defaultSubcommand: ServeCommand.self)
}

/// `fpbridge-server [serve]`: serves the API until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the API until SIGTERM or SIGINT (what fpbridge-server does without a subcommand).",
        discussion: """
        Accounts with scrypt-hashed passwords; devices bound with an attested key from fpbridged; \
        single-use challenges signed after a fingerprint match; payments confirmed by a signature over exactly \
        the payment. SQLite by default; PostgreSQL with --database postgres://… for several instances. \
        HTTPS with --tls-cert and --tls-key; without them only loopback HTTP (tests and demos). \
        Prints one line, "fpbridge-server listening on ADDRESS for origin ORIGIN", once it accepts connections. \
        The password alone binds only an account's first device; another needs a bound device's approval, \
        a binding code ('fpbridge-server device code') or an identity the administrator registered ('device trust').
        """)

    @Option(help: "Address to listen on (plain HTTP only on loopback).")
    var host = "127.0.0.1"
    @Option(help: "Port to listen on (0: any free port, printed at start).")
    var port = 8443
    @Option(help: "The origin clients use (https://bank.example); every assertion must name it. Default: this scheme, host and port.")
    var origin: String?
    @Option(help: "A SQLite file, or postgres://user[:password]@host[:port]/database[?sslmode=MODE[&sslrootcert=CA.pem]] (MODE: disable, the default, prefer, require, verify-ca or verify-full).")
    var database = "fpbridge-server.sqlite"
    @Option(help: "PEM certificate chain for HTTPS.")
    var tlsCert: String?
    @Option(help: "PEM private key for HTTPS.")
    var tlsKey: String?
    @Option(help: "Seconds a challenge stays valid (1 to 300).")
    var challengeSeconds = 120
    @Option(help: "log2 of scrypt's N for new passwords (10 to 20).")
    var passwordCost = 15
    @Option(help: "Failed password logins per minute per account, from anywhere.")
    var passwordLoginsPerAccount = 20
    @Option(help: "Failed password logins per minute per account from one client address.")
    var passwordLoginsPerAccountAddress = 5
    @Option(help: "Password logins per minute per client address, whatever their outcome.")
    var passwordLoginsPerAddress = 30
    @Option(help: "Registrations per minute per client address.")
    var registrationsPerAddress = 10
    @Option(help: "Challenges (logins, payments, approvals) per minute per device credential from one client address.")
    var challengesPerCredential = 30
    @Option(help: "Challenges per minute per client address.")
    var challengesPerAddress = 60
    // Removed (issue 36): said so at start rather than refused as an unknown option.
    @Option(help: .hidden)
    var challengesPerAccount: Int?
    @Option(help: "Signatures that do not verify (they never block a device), and wrong pairing codes, per minute per client address.")
    var badSignaturesPerAddress = 10
    @Option(help: "A reverse proxy (IP address) whose X-Forwarded-For names the client; repeat for several. Anyone else's header is ignored.")
    var trustedProxy: [String] = []
    @Flag(help: "Bind only device identities the administrator registered ('fpbridge-server device trust').")
    var trustedIdentitiesOnly = false
    @Flag(help: "An account's first device needs a binding code too (otherwise the password binds it: trust on first use).")
    var firstDeviceNeedsCode = false
    @Option(help: "Seconds a new device waits for a bound device's approval (60 to 86400).")
    var approvalSeconds = 600
    @Option(help: "An access control bound keys may have (repeat for several): biometryCurrentSet (default), biometryAny, userPresence, devicePasscode.")
    var acceptAccessControl: [String] = []
    @Flag(help: "Accept keys kept in a developer's own files (fake reader, demos, tests) instead of fpbridged.")
    var acceptDevelopmentKeys = false
    @Option(help: ArgumentHelp(
        "A PEM file of a TPM maker's CA certificates (repeat for several): vouch for a device whose identity key is proved "
            + "to be in a TPM whose endorsement certificate chains to one of them.",
        discussion: "Self-signed certificates are the roots; any other certificate in the files is an intermediate, trusted only through a root."))
    var tpmCa: [String] = []
    @Flag(help: ArgumentHelp(
        "A TPM proof binds a device on its own, with no approval or binding code.",
        discussion: "Only when the --tpm-ca CAs certified your own machines alone (an enterprise CA): a TPM maker's CA certifies "
            + "every PC with that maker's TPM, including one a password thief owns. Without it a TPM proof is checked and the "
            + "binding still needs a bound device's approval or a binding code, as any other."))
    var tpmVouches = false
    @Flag(name: .shortAndLong, help: "Log each request.")
    var verbose = false
    @Option(help: .hidden)
    var testClockOffsetFile: String?

    func validate() throws {
        if challengesPerAccount != nil {
            throw ValidationError("--challenges-per-account was removed: a limit every address shares let a stranger with many "
                                  + "addresses keep the account's owner from logging in; challenges are limited per client address "
                                  + "(--challenges-per-credential, --challenges-per-address)")
        }
    }

    func run() async throws {
        try ProcessLockdown.apply()
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.origin = origin
        configuration.database = ServerConfiguration.Database(argument: database)
        configuration.tlsCertificate = tlsCert
        configuration.tlsKey = tlsKey
        configuration.challengeSeconds = challengeSeconds
        configuration.passwordCostLog2 = passwordCost
        configuration.passwordLoginsPerAccount = passwordLoginsPerAccount
        configuration.passwordLoginsPerAddress = passwordLoginsPerAddress
        configuration.passwordLoginsPerAccountAddress = passwordLoginsPerAccountAddress
        configuration.registrationsPerAddress = registrationsPerAddress
        configuration.challengesPerCredential = challengesPerCredential
        configuration.challengesPerAddress = challengesPerAddress
        configuration.badSignaturesPerAddress = badSignaturesPerAddress
        configuration.trustedProxies = trustedProxy
        configuration.trustedIdentitiesOnly = trustedIdentitiesOnly
        configuration.firstDeviceNeedsCode = firstDeviceNeedsCode
        configuration.approvalSeconds = approvalSeconds
        if !acceptAccessControl.isEmpty { configuration.acceptedAccessControls = Set(acceptAccessControl) }
        configuration.acceptDevelopmentKeys = acceptDevelopmentKeys
        configuration.tpmVouches = tpmVouches
        configuration.tpmCertificateAuthorities = try tpmCa.map { path in
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch { throw ValidationError("--tpm-ca \(path): \(error)") }
        }
        let problems = configuration.problems()
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "; ")) }
        // Tests move the server's clock (challenge expiry, rate windows) instead of sleeping.
        if let testClockOffsetFile {
            do { try Clock.follow(offsetFile: testClockOffsetFile) } catch { throw ValidationError(error.description) }
        }
        // The database and its directory are the server's alone.
        umask(0o077)
        var logger = Logger(label: "fpbridge-server")
        logger.logLevel = verbose ? .debug : .warning
        do {
            try await AccountServer(configuration: configuration).run(logger: logger) { address, origin in
                FileHandle.standardOutput.write(Data("fpbridge-server listening on \(address) for origin \(origin)\n".utf8))
            }
        } catch let failure as ServerStartFailure {
            FileHandle.standardError.write(Data("fpbridge-server: \(failure.message)\n".utf8))
            throw ExitCode(1)
        }
    }
}
