import FPAuthentication
import FPLocalAPI

extension WireEnrollment {
    /// An engine's enrollment update on the wire, the saved print as a ``PrintSummary``.
    package init(_ update: EnrollmentUpdate) {
        switch update {
        case .presentFinger(let scanType, let stages): self.init(kind: "presentFinger"); self.scanType = scanType; self.stages = stages
        case .stage(let completed, let total): self.init(kind: "stage"); self.completed = completed; stages = total
        case .retry(let reason): self.init(kind: "retry"); retry = reason
        case .saved(let record): self.init(kind: "saved"); print = PrintSummary(record)
        }
    }
}

extension EnrollmentProgress {
    /// What a front end in the engine's own process shows of an update.
    package init(_ update: EnrollmentUpdate) {
        switch update {
        case .presentFinger(let scanType, let stages): self = .presentFinger(scanType, stages: stages)
        case .stage(let completed, let total): self = .stage(completed: completed, total: total)
        case .retry(let reason): self = .retry(reason)
        case .saved(let record): self = .saved(PrintSummary(record))
        }
    }
}

extension StreamLine {
    /// An enrollment's update as a stream line.
    package static func enrollment(_ update: EnrollmentUpdate) -> StreamLine {
        var line = StreamLine(type: .enrollment)
        line.enrollment = WireEnrollment(update)
        return line
    }
}
