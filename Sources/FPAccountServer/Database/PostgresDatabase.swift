import Foundation
import Logging
import PostgresNIO

/// PostgreSQL for several server instances on one database: every rule holds
/// across them because each is one conditional statement.
final class PostgresDatabase: SQLDatabase {
    let dialect = SQLDialect.postgres
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`); connections open on demand.
    init(url: String, logger: Logger) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty else {
            throw DatabaseFailure(description: "--database \(url): expected postgres://user[:password]@host[:port]/database")
        }
        let database = String(components.path.drop { $0 == "/" })
        let configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, database: database.isEmpty ? nil : database, tls: .disable)
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
