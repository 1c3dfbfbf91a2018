import Foundation
import GRDB

/// The embedded default: one SQLite file in WAL mode. Several server processes may
/// share it; SQLite's locks serialise their writes.
final class SQLiteDatabase: SQLDatabase {
    let dialect = SQLDialect.sqlite
    private let pool: DatabasePool

    /// Opens (creating) the file; its directory is made 0700 and the file 0600 (SQLiteFile).
    init(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let file = try SQLiteFile.prepare(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // WAL with NORMAL: a commit survives a crash of the process; a power cut may lose the last ones.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do { pool = try DatabasePool(path: path, configuration: configuration) } catch {
            throw DatabaseFailure(description: "cannot open the SQLite database \(path): \(error)")
        }
        guard file.isStill(at: path) else {
            try? pool.close()
            throw DatabaseFailure(description: "the SQLite database \(path) was replaced while it was being opened")
        }
    }

    func transaction(_ statements: [SQLStatement]) async throws -> [[SQLRow]] {
        do {
            return try await pool.write { db in
                try statements.map { statement in
                    let arguments = StatementArguments(statement.arguments.map(\.databaseValue))
                    // Cached: the same few statements run thousands of times a second.
                    let prepared = try db.cachedStatement(sql: statement.sql)
                    return try Row.fetchAll(prepared, arguments: arguments).map { row in
                        SQLRow(values: row.databaseValues.map(SQLValue.init))
                    }
                }
            }
        } catch let error as DatabaseError {
            throw DatabaseFailure(description: "SQLite: \(error.message ?? error.description)")
        }
    }

    func read(_ sql: String, _ arguments: [SQLValue]) async throws -> [SQLRow] {
        do {
            return try await pool.read { db in
                try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: StatementArguments(arguments.map(\.databaseValue))).map { row in
                    SQLRow(values: row.databaseValues.map(SQLValue.init))
                }
            }
        } catch let error as DatabaseError {
            throw DatabaseFailure(description: "SQLite: \(error.message ?? error.description)")
        }
    }

    func close() async {
        try? pool.close()
    }
}

private extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .text(let text): text.databaseValue
        case .int(let number): number.databaseValue
        case .null: .null
        }
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .int64(let number): self = .int(number)
        case .string(let text): self = .text(text)
        case .double(let number): self = .int(Int64(number))
        case .blob(let data): self = .text(String(decoding: data, as: UTF8.self))
        case .null: self = .null
        }
    }
}
