import Foundation

/// Attempt counters on disk, `counters/SCOPE.json`, updated under the state
/// directory's lock so that two processes failing at once both count.
public struct CounterStore: Sendable {
    public let directory: StateDirectory

    public init(directory: StateDirectory) {
        self.directory = directory
    }

    public func path(for scope: CounterScope) -> String {
        directory.file("counters", scope.fileName)
    }

    /// The counter for a scope. A file that cannot be read gives a counter
    /// marked ``AttemptCounter/damaged`` and locked out; the file stays as it is.
    public func counter(for scope: CounterScope) -> AttemptCounter {
        let path = path(for: scope)
        do {
            guard let data = try AtomicFile.read(path) else { return AttemptCounter() }
            return try StateCoding.decode(AttemptCounter.self, from: data, path: path)
        } catch {
            var counter = AttemptCounter()
            counter.damaged = true
            counter.biometryLockedOut = true
            return counter
        }
    }

    /// Reads, changes and writes a counter while holding the lock, and returns
    /// the counter as written. A damaged counter is only rewritten when `body`
    /// clears ``AttemptCounter/damaged`` (a correct passcode does).
    @discardableResult
    public func update(_ scope: CounterScope, _ body: (inout AttemptCounter) throws -> Void) throws -> AttemptCounter {
        try FileLock(path: directory.file(".lock")).withLock {
            var counter = counter(for: scope)
            let wasDamaged = counter.damaged
            try body(&counter)
            if !(wasDamaged && counter.damaged) {
                try AtomicFile.write(StateCoding.encode(counter), to: path(for: scope))
            }
            return counter
        }
    }
}
