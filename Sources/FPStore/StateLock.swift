/// The state directory's one cross-process lock. Every read-modify-write of
/// counters, passcodes and prints takes it once (flock locks are per open file,
/// so taking it twice in one process would deadlock: never nest).
package struct StateLock: Sendable {
    let directory: StateDirectory

    package init(directory: StateDirectory) {
        self.directory = directory
    }

    package func withLock<T>(_ body: () throws -> T) throws -> T {
        try directory.checkRoot()
        return try FileLock(path: directory.file(".lock")).withLock {
            try Self.$isHeld.withValue(true, operation: body)
        }
    }

    /// True inside ``withLock(_:)`` on this task: what runs there must not take the lock again.
    @TaskLocal package static var isHeld = false
}
