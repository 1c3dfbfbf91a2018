import Foundation
import Logging
import NIOSSL
import PostgresNIO

extension PostgresDatabase {
    /// Opens one connection as the pool would and closes it. The pool retries a refused
    /// connection for a minute before its queries fail, and then without the reason: this
    /// stops the start at once with it (pg_hba's refusal, no TLS at the server, a certificate
    /// that does not verify, a wrong password).
    func checkConnection() async throws {
        let connectionTLS: PostgresConnection.Configuration.TLS
        do {
            connectionTLS = switch (settings.tls, tls) {
            case (.prefer, let tls?): .prefer(try NIOSSLContext(configuration: tls))
            case (_, let tls?): .require(try NIOSSLContext(configuration: tls))
            case (_, nil): .disable
            }
        } catch {
            throw DatabaseFailure(description: "PostgreSQL TLS (sslmode=\(settings.tls.name)): \(error)")
        }
        let configuration = PostgresConnection.Configuration(
            host: settings.host, port: settings.port, username: settings.username,
            password: settings.password, database: settings.database, tls: connectionTLS)
        var quiet = logger
        quiet.logLevel = .critical
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: quiet)
            try? await connection.close()
        } catch {
            throw DatabaseFailure(description: "cannot connect to PostgreSQL at \(settings.host):\(settings.port) as "
                                  + "\(settings.username) with sslmode=\(settings.tls.name): \(Self.reason(error))")
        }
    }

    /// The server's own message when it sent one, else what failed underneath (NIOSSL's
    /// verification error, a refused TCP connection): PSQLError's description hides both.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        if error.code == .sslUnsupported { return "the server does not offer TLS" }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}
