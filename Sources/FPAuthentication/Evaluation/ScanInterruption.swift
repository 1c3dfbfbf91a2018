import FPReaders
import FPVocabulary

/// Lets a front end press the fallback button while the reader is waiting for a
/// finger: the scan in progress ends as if the reader had reported the choice.
final class ScanInterruption: Sendable {
    private struct State {
        var offered = false
        var chosen = false
        var scan: Task<IdentificationScan, any Error>?
    }

    private let state = Locked(State())

    /// A new evaluation starts with no button shown.
    func reset() {
        state.withLock { $0 = State() }
    }

    /// The button is now shown.
    func offer() {
        state.withLock { $0.offered = true }
    }

    /// Presses the button; false (and nothing happens) when it is not shown.
    func choose() -> Bool {
        let (pressed, scan) = state.withLock { state -> (Bool, Task<IdentificationScan, any Error>?) in
            guard state.offered, !state.chosen else { return (false, nil) }
            state.chosen = true
            return (true, state.scan)
        }
        scan?.cancel()
        return pressed
    }

    /// Runs one scan that the button can end; it then reads as `.userChoice(.fallback)`.
    func scan(_ body: @escaping @Sendable () async throws -> IdentificationScan) async throws -> IdentificationScan {
        let task = Task { try await body() }
        let chosen = state.withLock { state in
            state.scan = task
            return state.chosen
        }
        if chosen { task.cancel() }
        defer { state.withLock { $0.scan = nil } }
        do {
            return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        } catch {
            if state.withLock({ $0.chosen }) && !Task.isCancelled { return .decided(.userChoice(.fallback)) }
            throw error
        }
    }
}
