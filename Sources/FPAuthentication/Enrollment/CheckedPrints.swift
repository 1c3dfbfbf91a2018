import FPCore
import FPReaders
import FPStore

extension PrintStore {
    /// The user's print files as `entries(user:reader:)` gives them, with a print
    /// whose bytes the reader could not read (damaged inside valid JSON) turned
    /// into a damaged entry naming its file, before any reader sees it.
    public func checkedEntries(user: String, reader: ReaderIdentity?) throws(StoreError) -> [PrintEntry] {
        try checkedEntries(user: user, reader: reader, in: StatePass(directory))
    }

    /// ``checkedEntries(user:reader:)`` within a pass over many users (``StatePass``).
    package func checkedEntries(user: String, reader: ReaderIdentity?, in pass: StatePass) throws(StoreError) -> [PrintEntry] {
        try entries(user: user, reader: reader, in: pass).map { entry throws(StoreError) -> PrintEntry in
            guard case .record(let record) = entry else { return entry }
            let path = try path(user: record.user, reader: record.reader, finger: record.finger)
            let check = { (record: PrintRecord) in PrintValidation.problem(in: record.print, driver: record.reader.driver) }
            guard let problem = cache.map({ $0.problem(for: record, path: path, check: check) }) ?? check(record) else {
                return entry
            }
            return .damaged(.damaged(path: path, reason: "the print's bytes cannot be read: \(problem)"))
        }
    }

    /// The user's usable prints; the first damaged one is an error naming its file.
    public func checkedPrints(user: String, reader: ReaderIdentity?) throws(StoreError) -> [PrintRecord] {
        try checkedEntries(user: user, reader: reader).map { entry throws(StoreError) -> PrintRecord in
            switch entry {
            case .record(let record): return record
            case .damaged(let error): throw error
            }
        }
    }
}
