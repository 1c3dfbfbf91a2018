import FPVocabulary

/// An ``EnrollmentUpdate`` on the wire, the saved print as a ``PrintSummary``.
package struct WireEnrollment: Codable, Sendable, Hashable {
    package var kind: String
    package var scanType: ScanType?
    package var stages: Int?
    package var completed: Int?
    package var retry: RetryReason?
    package var print: PrintSummary?

    /// An update of this kind; its other fields are set by whoever builds it (the engine's side).
    package init(kind: String) { self.kind = kind }
}

/// What a front end shows of an enrollment, wherever it runs.
package enum EnrollmentProgress: Sendable, Hashable {
    case presentFinger(ScanType, stages: Int)
    case stage(completed: Int, total: Int)
    case retry(RetryReason)
    case saved(PrintSummary)

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
