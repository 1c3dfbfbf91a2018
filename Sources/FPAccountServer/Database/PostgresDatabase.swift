import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// PostgreSQL for several server instances on one database: every rule holds
/// across them because each is one conditional statement.
final class PostgresDatabase: SQLDatabase {
    let dialect = SQLDialect.postgres
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    let logger: Logger
    let settings: PostgresURL
    let tls: TLSConfiguration?

    /// Connects to `url` (PostgresURL.form); connections open on demand.
    init(url: String, logger: Logger) throws {
        settings = try PostgresURL(url)
        tls = try settings.tls.configuration()
        let clientTLS: PostgresClient.Configuration.TLS = switch (settings.tls, tls) {
        case (.prefer, let tls?): .prefer(tls)
        case (_, let tls?): .require(tls)
        case (_, nil): .disable
        }
        let configuration = PostgresClient.Configuration(
            host: settings.host, port: settings.port, username: settings.username,
            password: settings.password, database: settings.database, tls: clientTLS)
        var quiet = logger
        // The client warns about its own start-up race; only real failures are worth a line.
        quiet.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: quiet)
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]] {
        do {
            if statements.count == 1 {
                return [try await client.query(Self.query(statements[0]), logger: logger).collect().map(Self.row)]
            }
            return try await client.withTransaction(logger: logger) { connection in
                var results: [[SQLRow]] = []
                for statement in statements {
                    results.append(try await connection.query(Self.query(statement), logger: logger).collect().map(Self.row))
                }
                return results
            }
        } catch let error as PSQLError {
            throw DatabaseFailure(description: "PostgreSQL: \(error.serverInfo?[.message] ?? String(reflecting: error.code))")
        } catch let error as PostgresTransactionError {
            throw DatabaseFailure(description: "PostgreSQL transaction: \(error)")
        }
    }

    func read(_ sql: String, _ arguments: [SQLValue]) async throws -> [SQLRow] {
        try await transaction([SQLStatement(sql, arguments)])[0]
    }

    func close() async {
        runner.cancel()
    }

    /// `?` placeholders become `$1`, `$2`, …
    private static func query(_ statement: SQLStatement) -> PostgresQuery {
        var sql = ""
        var index = 0
        for character in statement.sql {
            if character == "?" {
                index += 1
                sql += "$\(index)"
            } else {
                sql.append(character)
            }
        }
        var bindings = PostgresBindings(capacity: statement.arguments.count)
        for argument in statement.arguments {
            switch argument {
            case .text(let text): bindings.append(text)
            case .int(let number): bindings.append(number)
            case .null: bindings.appendNull()
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    private static func row(_ row: PostgresRow) -> SQLRow {
        SQLRow(values: row.map { cell -> SQLValue in
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return .int((try? cell.decode(Int64.self)) ?? 0)
            case .bool: return .int((try? cell.decode(Bool.self)) == true ? 1 : 0)
            default: return .text((try? cell.decode(String.self)) ?? "")
            }
        })
    }
}
