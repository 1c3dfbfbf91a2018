import FPLocalAPI
import FPStore

extension PrintSummary {
    /// What is said of a stored print: everything but its template.
    package init(_ record: PrintRecord) {
        self.init(user: record.user, finger: record.finger, reader: record.reader, enrolledAt: record.enrolledAt,
                  storedOnDevice: record.storedOnDevice)
    }
}

extension PrintList {
    /// The usable prints of `entries`, and the damaged files by description.
    package init(user: String, entries: [PrintEntry]) {
        self.init(user: user, prints: entries.compactMap(\.record).map(PrintSummary.init),
                  damaged: entries.compactMap { entry in
                      if case .damaged(let error) = entry { return error.description }
                      return nil
                  })
    }
}

extension RemovedPrints {
    /// The records removed, as summaries.
    package init(user: String, removed: [PrintRecord]) {
        self.init(user: user, summaries: removed.map(PrintSummary.init))
    }
}
