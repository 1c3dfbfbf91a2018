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
        discussion: """
        Accounts with scrypt-hashed passwords; devices bound with an attested key from fpbridged; \
        single-use challenges signed after a fingerprint match; payments confirmed by a signature over exactly \
        the payment. SQLite by default; PostgreSQL with --database postgres://… for several instances. \
        HTTPS with --tls-cert and --tls-key; without them only loopback HTTP (tests and demos). \
        Prints one line, "fpbridge-server listening on ADDRESS for origin ORIGIN", once it accepts connections.
        """)

    @Option(help: "Address to listen on (plain HTTP only on loopback).")
    var host = "127.0.0.1"
    @Option(help: "Port to listen on (0: any free port, printed at start).")
    var port = 8443
    @Option(help: "The origin clients use (https://bank.example); every assertion must name it. Default: this scheme, host and port.")
    var origin: String?
    @Option(help: "A SQLite file, or postgres://user[:password]@host[:port]/database.")
    var database = "fpbridge-server.sqlite"
    @Option(help: "PEM certificate chain for HTTPS.")
    var tlsCert: String?
    @Option(help: "PEM private key for HTTPS.")
    var tlsKey: String?
    @Option(help: "Seconds a challenge stays valid (1 to 300).")
    var challengeSeconds = 120
    @Option(help: "log2 of scrypt's N for new passwords (10 to 20).")
    var passwordCost = 15
    @Option(help: "Password logins per minute per account.")
    var passwordLoginsPerAccount = 10
    @Option(help: "Password logins per minute per client address (and as many registrations).")
    var passwordLoginsPerAddress = 30
    @Option(help: "Challenges (logins and payments) per minute per device credential.")
    var challengesPerCredential = 30
    @Option(help: "Challenges per minute per account.")
    var challengesPerAccount = 60
    @Option(help: "An access control bound keys may have (repeat for several): biometryCurrentSet (default), biometryAny, userPresence, devicePasscode.")
    var acceptAccessControl: [String] = []
    @Flag(help: "Accept keys kept in a developer's own files (fake reader, demos, tests) instead of fpbridged.")
    var acceptDevelopmentKeys = false
    @Flag(name: .shortAndLong, help: "Log each request.")
    var verbose = false

    func run() async throws {
        try ProcessLockdown.apply()  // issue 28 §6: no core dump, no ptrace by the same user (ProcessLockdown.swift)
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.origin = origin
        configuration.database = database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")
            ? .postgres(url: database) : .sqlite(path: database)
        configuration.tlsCertificate = tlsCert
        configuration.tlsKey = tlsKey
        configuration.challengeSeconds = challengeSeconds
        configuration.passwordCostLog2 = passwordCost
        configuration.passwordLoginsPerAccount = passwordLoginsPerAccount
        configuration.passwordLoginsPerAddress = passwordLoginsPerAddress
        configuration.challengesPerCredential = challengesPerCredential
        configuration.challengesPerAccount = challengesPerAccount
        if !acceptAccessControl.isEmpty { configuration.acceptedAccessControls = Set(acceptAccessControl) }
        configuration.acceptDevelopmentKeys = acceptDevelopmentKeys
        let problems = configuration.problems()
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "; ")) }
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
