import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The state directory's one cross-process lock. Every read-modify-write of
/// counters, passcodes and prints takes it once (flock locks are per open file,
/// so taking it twice in one process would deadlock: never nest).
///
/// `flock` blocks the calling thread. No async gate stands in front of it (issue 41 §2 asked
/// for one): the lock is held only for reads and writes of small files (never for a scan, a
/// prompt, scrypt or a TPM command: `KeyVault.attest` signs before it), so a request that finds
/// it taken waits milliseconds, and the callers that do slow work around it (keys, the TPM)
/// run on fpbridged's blocking threads. A gate would turn every caller, most of them
/// synchronous engine code, async, for waits that short.
package struct StateLock: Sendable {
    let directory: StateDirectory

    package init(directory: StateDirectory) {
        self.directory = directory
    }

    /// The lock file, `.lock` in the state directory.
    package var path: String { directory.file(".lock") }

    package func withLock<T>(_ body: () throws -> T) throws -> T {
        try directory.checkRoot()
        return try FileLock(path: path).withLock {
            try Self.$isHeld.withValue(true, operation: body)
        }
    }

    /// Why the lock cannot be taken, nil when it can (a regular file, or none yet: the first
    /// lock makes it). Anything else at `.lock` (a folder, a FIFO, a link) refuses every
    /// count, so every check, until a repair moves it aside: status and repair say so
    /// instead of reading the counters as if the lock worked.
    package func problem() -> String? {
        FileLock.problem(at: path)
    }

    /// True inside ``withLock(_:)`` on this task: what runs there must not take the lock again.
    @TaskLocal package static var isHeld = false
}
