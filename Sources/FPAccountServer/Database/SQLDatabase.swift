/// A value bound to or read from a statement: the schema uses only text and 64-bit integers,
/// so one SQL text serves SQLite and PostgreSQL.
enum SQLValue: Sendable, Hashable {
    case text(String)
    case int(Int64)
    case null

    init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }
    init(_ number: Int64?) { self = number.map(SQLValue.int) ?? .null }
}

/// One statement: SQL with `?` placeholders (never inside a literal) and its arguments.
struct SQLStatement: Sendable {
    let sql: String
    let arguments: [SQLValue]

    init(_ sql: String, _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// A row, by column position.
struct SQLRow: Sendable {
    let values: [SQLValue]

    func text(_ column: Int) -> String? {
        if case .text(let value) = values[column] { return value }
        return nil
    }

    func int(_ column: Int) -> Int64? {
        if case .int(let value) = values[column] { return value }
        return nil
    }
}

/// Which SQL the database speaks where the two differ (migration locking only).
enum SQLDialect: String, Sendable {
    case sqlite
    case postgres
}

/// Storage the server's rules run on. Every call is one transaction: a rule that
/// must hold across server instances is written as one conditional statement
/// (`UPDATE … WHERE used_at IS NULL … RETURNING`), never as a read then a write.
protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Runs the statements in one transaction; the rows each returned, in order.
    func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]]
    /// Runs one statement that only reads (SQLite serves it beside the writer).
    func read(_ sql: String, _ arguments: [SQLValue]) async throws -> [SQLRow]
    /// Closes connections.
    func close() async
}

extension SQLDatabase {
    /// One statement on its own.
    func run(_ sql: String, _ arguments: [SQLValue] = []) async throws -> [SQLRow] {
        try await transaction([SQLStatement(sql, arguments)])[0]
    }
}

/// The database failed (not a rule): the server answers 503 and changes nothing.
struct DatabaseFailure: Error, CustomStringConvertible {
    let description: String
}
