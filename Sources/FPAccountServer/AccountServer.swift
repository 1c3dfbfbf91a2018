import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL
import Logging

/// `fpbridge-server`: the reference login and payment server of the seeds, over HTTPS
/// (or loopback HTTP for tests and the demo), on SQLite or PostgreSQL.
package struct AccountServer: Sendable {
    package let configuration: ServerConfiguration

    package init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// Opens and migrates the database, then serves until SIGTERM or SIGINT; `ready` gets
    /// the address it listens on and the origin assertions must name, once the port is open.
    package func run(logger: Logger, ready: @escaping @Sendable (_ address: String, _ origin: String) -> Void = { _, _ in }) async throws {
        let problems = configuration.problems()
        guard problems.isEmpty else { throw ServerStartFailure(message: problems.joined(separator: "; ")) }
        let database = try await openDatabase(logger: logger)
        do { try await Schema.migrate(database) } catch {
            await database.close()
            throw ServerStartFailure(message: "cannot prepare the database: \(error)")
        }
        let scheme = configuration.tlsCertificate == nil ? "http" : "https"
        let origin = Origin(configuration.origin ?? "")
        let service = AccountService(configuration: configuration, database: database, origin: origin)
        let router = Router(context: AccountRequestContext.self)
        router.add(middleware: ErrorShapeMiddleware())
        AccountRoutes(service: service).register(on: router)
        let housekeeping = Task {
            // Expired challenges and sessions are useless; an hour's grace keeps the audit trail readable.
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(60))
                try? await service.store.purge(olderThan: Clock.milliseconds() - 3_600_000)
            }
        }
        defer { housekeeping.cancel() }
        let host = configuration.host
        let configured = configuration.origin
        let app = Application(
            router: router,
            server: try serverBuilder(),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "fpbridge-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shownHost = host.contains(":") ? "[\(host)]" : host
                let address = "\(scheme)://\(shownHost):\(port)"
                if configured == nil { origin.set(address) }
                ready(address, origin.value)
            },
            logger: logger)
        do { try await app.runService() } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    /// The configured database, opened and (PostgreSQL) reached once; why not, for the command line.
    private func openDatabase(logger: Logger) async throws -> any SQLDatabase {
        do {
            switch configuration.database {
            case .sqlite(let path): return try SQLiteDatabase(path: path)
            case .postgres(let url):
                let database = try PostgresDatabase(url: url, logger: logger)
                do { try await database.checkConnection() } catch {
                    await database.close()
                    throw error
                }
                return database
            }
        } catch let failure as DatabaseFailure {
            throw ServerStartFailure(message: failure.description)
        }
    }

    private func serverBuilder() throws -> HTTPServerBuilder {
        // A connection idle between requests (or stalled before its first) goes after 10 s.
        let http = HTTPServerBuilder.http1(configuration: .init(idleTimeout: .seconds(10)))
        guard let certificate = configuration.tlsCertificate, let key = configuration.tlsKey else { return http }
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            let tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain,
                                                               privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            return try .tls(http, tlsConfiguration: tls)
        } catch {
            throw ServerStartFailure(message: "cannot load --tls-cert \(certificate) and --tls-key \(key): \(error)")
        }
    }
}

/// Why the server did not start, in words for the command line.
package struct ServerStartFailure: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
