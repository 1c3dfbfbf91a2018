import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import FPCore

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

    /// The file that holds `user`'s ``AuthenticationTimes``, beside their counter.
    public func timesPath(user: String) -> String {
        directory.file("counters", "user-\(PathComponent.encode(user)).times")
    }

    /// The user's ``AuthenticationTimes``; a file that cannot be used gives a record with its
    /// ``AuthenticationTimes/problem`` (read once more under the lock first, as ``counter(for:)`` does).
    public func times(user: String) -> AuthenticationTimes {
        let failure: StoreError
        do { return try loadTimes(user: user) } catch { failure = error }
        guard !StateLock.isHeld else { return .placeholder(for: failure) }
        do {
            return try StateLock(directory: directory).withLock { try loadTimes(user: user) }
        } catch {
            return .placeholder(for: error)
        }
    }

    /// ``times(user:)`` within a pass over many users (see ``counter(for:in:)``).
    package func times(user: String, in pass: StatePass) -> AuthenticationTimes {
        if pass.countersChecked(in: directory), let times = try? loadTimes(user: user, folderChecked: true) { return times }
        return times(user: user)
    }

    /// The user's times, or the reason their file cannot be used (none: nothing known).
    public func loadTimes(user: String) throws(StoreError) -> AuthenticationTimes {
        try loadTimes(user: user, folderChecked: false)
    }

    /// A times file by path (a repair reads every one), or the reason it cannot be used.
    package func loadTimes(path: String) throws(StoreError) -> AuthenticationTimes {
        try loadTimes(path: path, folderChecked: false)
    }

    private func loadTimes(user: String, folderChecked: Bool) throws(StoreError) -> AuthenticationTimes {
        try loadTimes(path: timesPath(user: user), folderChecked: folderChecked)
    }

    private func loadTimes(path: String, folderChecked: Bool) throws(StoreError) -> AuthenticationTimes {
        if !folderChecked { try directory.checkRoot() }
        guard let data = try AtomicFile.read(path, parentChecked: folderChecked) else { return AuthenticationTimes() }
        return try StateCoding.decode(AuthenticationTimes.self, from: data, path: path)
    }

    /// Every counter file is exactly this long: its JSON padded with spaces. Being rewritten
    /// in place needs no new block, so a full disk cannot stop a failure from being counted;
    /// and the JSON (under 512 bytes, see `CounterFileTests`) lies in the first sector,
    /// which a disk writes whole.
    public static let fileSize = 512

    /// The counter for a scope. A damaged file gives ``AttemptCounter/damagedPlaceholder``, one
    /// that cannot be read (permission, file descriptors, I/O) an
    /// ``AttemptCounter/unreadablePlaceholder(_:)`` naming why: both locked out; the file stays as it is.
    ///
    /// Read outside the lock, a file being rewritten in place can be seen half old, half
    /// new: what reads as damage is read once more under the lock before it counts (not when
    /// this task holds the lock already: that would wait for itself). A torn read that still
    /// parses can only be wrong for a moment, and nothing is decided on this read alone:
    /// every decision reads its counter again inside a `transaction(_:)`.
    public func counter(for scope: CounterScope) -> AttemptCounter {
        let failure: StoreError
        do { return try load(scope) } catch { failure = error }
        guard !StateLock.isHeld else { return .placeholder(for: failure) }
        do {
            return try StateLock(directory: directory).withLock { try load(scope) }
        } catch {
            return .placeholder(for: error)
        }
    }

    /// ``counter(for:)`` within a pass over many users: the state directory and `counters/`
    /// were checked when the pass began. A read that fails takes ``counter(for:)``'s way,
    /// checks included, so a damaged or unreadable file gives what it always gives.
    package func counter(for scope: CounterScope, in pass: StatePass) -> AttemptCounter {
        if pass.countersChecked(in: directory), let counter = try? load(path: path(for: scope), folderChecked: true) { return counter }
        return counter(for: scope)
    }

    /// Whether the scope's counter file is in place at its fixed size, so that counting
    /// needs no new block of the filesystem.
    public func isReserved(_ scope: CounterScope) -> Bool {
        AtomicFile.hasSize(path(for: scope), Self.fileSize)
    }

    /// The counter, or the reason its file cannot be used.
    public func load(_ scope: CounterScope) throws(StoreError) -> AttemptCounter {
        try load(path: path(for: scope))
    }

    /// The counter in a file by path, or the reason it cannot be used.
    public func load(path: String) throws(StoreError) -> AttemptCounter {
        try load(path: path, folderChecked: false)
    }

    /// `folderChecked`: the state directory and the file's folder were checked in this pass.
    private func load(path: String, folderChecked: Bool) throws(StoreError) -> AttemptCounter {
        if !folderChecked { try directory.checkRoot() }
        guard let data = try AtomicFile.read(path, parentChecked: folderChecked) else { return AttemptCounter() }
        return try StateCoding.decode(AttemptCounter.self, from: data, path: path)
    }

    /// Reads and changes counters while holding the state directory's lock.
    /// Only counters the body changed are written; a damaged or unreadable counter is never
    /// rewritten unless the body replaced it with a usable one (a repair).
    ///
    /// - Throws: what `body` throws; ``CounterWriteFailure`` when the lock cannot be taken or
    ///   a changed counter cannot be written (nothing may then be reported as decided).
    package func transaction<T>(_ body: (inout CounterSet) throws -> T) throws -> T {
        var entered = false
        do {
            return try StateLock(directory: directory).withLock {
                entered = true
                var set = CounterSet(store: self)
                let result = try body(&set)
                try set.flush()
                return result
            }
        } catch let error as StoreError where !entered {
            // A lock that cannot be taken is a count that cannot be recorded; an unsafe
            // directory stays the refusal it is.
            guard case .io = error else { throw error }
            throw CounterWriteFailure(path: directory.file(".lock"), error: error)
        }
    }

    /// Writes one counter; call only inside the state lock.
    package func write(_ counter: AttemptCounter, for scope: CounterScope) throws(StoreError) {
        try write(counter, toPath: path(for: scope))
    }

    /// Writes a counter file by path; call only inside the state lock (repairs too).
    /// A file already at ``fileSize`` is rewritten in place; any other (missing, or written
    /// before counters had a fixed size) is replaced whole, which needs free space.
    package func write(_ counter: AttemptCounter, toPath path: String) throws(StoreError) {
        try Self.writeFixed(Self.encode(counter), to: path)
    }

    /// Writes a user's times at ``fileSize`` as a counter is written (in place when it can be);
    /// call only inside the state lock.
    package func write(_ times: AuthenticationTimes, user: String) throws(StoreError) {
        try write(times, toPath: timesPath(user: user))
    }

    /// Writes a times file by path; call only inside the state lock (repairs too).
    package func write(_ times: AuthenticationTimes, toPath path: String) throws(StoreError) {
        try Self.writeFixed(Self.padded(StateCoding.encode(times)), to: path)
    }

    private static func writeFixed(_ data: Data, to path: String) throws(StoreError) {
        if try AtomicFile.overwrite(data, at: path) { return }
        try AtomicFile.write(data, to: path)
    }

    /// Puts the scope's counter file in place at ``fileSize`` when it is missing or of another
    /// size (written before counters had one), keeping what it holds; call inside the state
    /// lock. A damaged file is left for repair. Enrolling and setting a passcode do this, so
    /// that the counting they make possible needs no free space later.
    package func reserve(_ scope: CounterScope) throws(StoreError) {
        guard !isReserved(scope) else { return }
        let counter: AttemptCounter
        do {
            counter = try load(scope)
        } catch .damaged {
            return
        }
        try write(counter, for: scope)
    }

    /// Makes a counters folder at `folder` holding `counters` (a repair builds the folder that
    /// then takes the damaged one's place in one step); call inside the state lock.
    package func writeFolder(_ counters: [CounterScope: AttemptCounter], at folder: String) throws(StoreError) {
        guard mkdir(folder, 0o700) == 0 else {
            throw .failed(path: folder, "cannot create directory", because: .last)
        }
        for (scope, counter) in counters { try AtomicFile.write(Self.encode(counter), to: folder + "/" + scope.fileName) }
    }

    /// The counter's file contents: its JSON padded to ``fileSize``.
    package static func encode(_ counter: AttemptCounter) -> Data {
        padded(StateCoding.encode(counter))
    }

    /// JSON padded with spaces to ``fileSize``, ending in a newline.
    package static func padded(_ json: Data) -> Data {
        var data = json
        precondition(data.count < fileSize, "a counter's JSON outgrew its fixed file size")
        data.append(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: fileSize - data.count - 1))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Every counter file, by path.
    package func filesOnDisk() throws(StoreError) -> [String] {
        try files(endingIn: ".json")
    }

    /// Every user's times file, by path.
    package func timesFilesOnDisk() throws(StoreError) -> [String] {
        try files(endingIn: ".times")
    }

    private func files(endingIn suffix: String) throws(StoreError) -> [String] {
        try directory.checkRoot()
        return try AtomicFile.list(directory.file("counters")).filter { $0.hasSuffix(suffix) }
            .map { directory.file("counters", $0) }
    }
}

/// The counters one transaction reads and changes.
package struct CounterSet {
    let store: CounterStore
    private var loaded: [CounterScope: AttemptCounter] = [:]
    private var changed: Set<CounterScope> = []
    private var loadedTimes: [String: AuthenticationTimes] = [:]
    private var changedTimes: Set<String> = []

    init(store: CounterStore) {
        self.store = store
    }

    package subscript(scope: CounterScope) -> AttemptCounter {
        mutating get {
            if let counter = loaded[scope] { return counter }
            // Under the lock no one rewrites the file: what does not parse is damage; what
            // cannot be read keeps its cause.
            let counter: AttemptCounter
            do { counter = try store.load(scope) } catch { counter = .placeholder(for: error) }
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

    /// A user's ``AuthenticationTimes``, read under the lock; set, written when the transaction
    /// ends if it changed (one that cannot be used is never written back as read).
    package subscript(times user: String) -> AuthenticationTimes {
        mutating get {
            if let times = loadedTimes[user] { return times }
            let times: AuthenticationTimes
            do { times = try store.loadTimes(user: user) } catch { times = .placeholder(for: error) }
            loadedTimes[user] = times
            return times
        }
        set {
            let current = self[times: user]
            loadedTimes[user] = newValue
            if newValue != current { changedTimes.insert(user) }
        }
    }

    /// Writes the scope's counter when the transaction ends even if it did not change.
    /// A decision (a match, a correct passcode) is reported only once this write is on the
    /// disk: when a failure could not have been recorded, no success is reported either, so
    /// an unwritable counter gives no match/no-match signal.
    package mutating func commit(_ scope: CounterScope) {
        _ = self[scope]
        changed.insert(scope)
    }

    /// Creates the scope's counter file at its fixed size when it is missing or was
    /// written before counters had one, so that later counting needs no new block.
    package mutating func reserve(_ scope: CounterScope) {
        guard !store.isReserved(scope) else { return }
        commit(scope)
    }

    fileprivate func flush() throws(CounterWriteFailure) {
        for scope in changed {
            guard let counter = loaded[scope], !counter.unusable else { continue }
            do {
                try store.write(counter, for: scope)
            } catch {
                throw CounterWriteFailure(path: path(scope), error: error)
            }
        }
        for user in changedTimes {
            guard let times = loadedTimes[user], !times.unusable else { continue }
            do {
                try store.write(times, user: user)
            } catch {
                throw CounterWriteFailure(path: store.timesPath(user: user), error: error)
            }
        }
    }
}

/// A counter transaction could not be recorded: its lock could not be taken or a counter
/// could not be written. Whatever the transaction decided must not be reported.
package struct CounterWriteFailure: Error, Sendable, CustomStringConvertible {
    /// The file that could not be locked or written.
    package let path: String
    /// What the filesystem said.
    package let error: StoreError

    package var description: String { error.description }
}
