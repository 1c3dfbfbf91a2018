import FPAuthentication

/// An ``EnrollmentUpdate`` on the wire, the saved print as a ``PrintSummary``.
package struct WireEnrollment: Codable, Sendable, Hashable {
    package var kind: String
    package var scanType: ScanType?
    package var stages: Int?
    package var completed: Int?
    package var retry: RetryReason?
    package var print: PrintSummary?

    package init(_ update: EnrollmentUpdate) {
        switch update {
        case .presentFinger(let scanType, let stages): kind = "presentFinger"; self.scanType = scanType; self.stages = stages
        case .stage(let completed, let total): kind = "stage"; self.completed = completed; stages = total
        case .retry(let reason): kind = "retry"; retry = reason
        case .saved(let record): kind = "saved"; print = PrintSummary(record)
        }
    }
}

/// What a front end shows of an enrollment, wherever it runs.
package enum EnrollmentProgress: Sendable, Hashable {
    case presentFinger(ScanType, stages: Int)
    case stage(completed: Int, total: Int)
    case retry(RetryReason)
    case saved(PrintSummary)

    package init(_ update: EnrollmentUpdate) {
        switch update {
        case .presentFinger(let scanType, let stages): self = .presentFinger(scanType, stages: stages)
        case .stage(let completed, let total): self = .stage(completed: completed, total: total)
        case .retry(let reason): self = .retry(reason)
        case .saved(let record): self = .saved(PrintSummary(record))
        }
    }

    /// Nil for a kind this side does not know.
    package init?(_ wire: WireEnrollment) {
        switch wire.kind {
        case "presentFinger": self = .presentFinger(wire.scanType ?? .press, stages: wire.stages ?? 0)
        case "stage": self = .stage(completed: wire.completed ?? 0, total: wire.stages ?? 0)
        case "retry": self = .retry(wire.retry ?? .general)
        case "saved":
            guard let print = wire.print else { return nil }
            self = .saved(print)
        default: return nil
        }
    }
}
