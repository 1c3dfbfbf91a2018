import FoundationEssentials

/// Attempt counters on disk, `counters/SCOPE.json`.
///
/// Reading is public; changing a counter is not: every change goes through the
/// engine's rules inside one `StateLock` transaction, so that the decision
/// and the count are one step across processes.
public struct CounterStore: Sendable {
    /// The state directory whose `counters/` this reads.
    public let directory: StateDirectory

    /// The counters of the state in `directory`.
    public init(directory: StateDirectory) {
        self.directory = directory
    }

    /// The file that holds the counter of `scope`.
    public func path(for scope: CounterScope) -> String {
        directory.file("counters", scope.fileName)
    }

    /// The counter for a scope. A file that cannot be read gives
    /// ``AttemptCounter/damagedPlaceholder``; the file stays as it is.
    public func counter(for scope: CounterScope) -> AttemptCounter {
        (try? load(scope)) ?? AttemptCounter.damagedPlaceholder
    }

    /// The counter, or the reason its file cannot be used.
    public func load(_ scope: CounterScope) throws(StoreError) -> AttemptCounter {
        try load(path: path(for: scope))
    }

    /// The counter in a file by path, or the reason it cannot be used.
    public func load(path: String) throws(StoreError) -> AttemptCounter {
        try directory.checkRoot()
        guard let data = try AtomicFile.read(path) else { return AttemptCounter() }
        return try StateCoding.decode(AttemptCounter.self, from: data, path: path)
    }

    /// Reads and changes counters while holding the state directory's lock.
    /// Only counters the body changed are written; a damaged counter is never
    /// rewritten unless the body cleared ``AttemptCounter/damaged`` (a repair).
    package func transaction<T>(_ body: (inout CounterSet) throws -> T) throws -> T {
        try StateLock(directory: directory).withLock {
            var set = CounterSet(store: self)
            let result = try body(&set)
            try set.flush()
            return result
        }
    }

    /// Writes one counter; call only inside the state lock.
    package func write(_ counter: AttemptCounter, for scope: CounterScope) throws(StoreError) {
        try AtomicFile.write(StateCoding.encode(counter), to: path(for: scope))
    }

    /// Writes a counter file by path; call only inside the state lock (repairs).
    package func write(_ counter: AttemptCounter, toPath path: String) throws(StoreError) {
        try AtomicFile.write(StateCoding.encode(counter), to: path)
    }

    /// Every counter file, by path.
    package func filesOnDisk() throws(StoreError) -> [String] {
        try directory.checkRoot()
        return try AtomicFile.list(directory.file("counters")).filter { $0.hasSuffix(".json") }
            .map { directory.file("counters", $0) }
    }
}

/// The counters one transaction reads and changes.
package struct CounterSet {
    let store: CounterStore
    private var loaded: [CounterScope: AttemptCounter] = [:]
    private var changed: Set<CounterScope> = []

    init(store: CounterStore) {
        self.store = store
    }

    package subscript(scope: CounterScope) -> AttemptCounter {
        mutating get {
            if let counter = loaded[scope] { return counter }
            let counter = store.counter(for: scope)
            loaded[scope] = counter
            return counter
        }
        set {
            // A counter set to what it already holds is not written: a match with no failures
            // to clear would otherwise cost an atomic write and two fsyncs on every verify.
            let current = self[scope]
            loaded[scope] = newValue
            if newValue != current { changed.insert(scope) }
        }
    }

    package func path(_ scope: CounterScope) -> String { store.path(for: scope) }

    fileprivate func flush() throws {
        for scope in changed {
            guard let counter = loaded[scope], !counter.damaged else { continue }
            try store.write(counter, for: scope)
        }
    }
}
