@testable import FPStore
import Foundation
import Testing
import TestSupport

/// Whoever can plant a file in a state directory must not hang, flood or fool fpbridge.
@Suite struct StateFileSafetyTests {
    let directory = TemporaryDirectory()
    var state: StateDirectory { StateDirectory(path: directory.file("state")) }

    /// Runs `body` on a thread of its own and fails instead of hanging when it does not return.
    func finishes<T: Sendable>(within seconds: Double = 5, _ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { continuation in
            let once = OnceBox(continuation)
            Thread { once.resume(body()) }.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { once.resume(nil) }
        }
    }

    @Test func aFIFOInPlaceOfACounterIsDamageNotAHang() async throws {
        let counters = CounterStore(directory: state)
        try counters.transaction { $0[.user("alice")].biometricFailures = 1 }
        let path = counters.path(for: .user("alice"))
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        let counter = await finishes { counters.counter(for: .user("alice")) }
        #expect(counter?.damaged == true, "reading a FIFO must not block")
        #expect(throws: StoreError.self) { try counters.load(.user("alice")) }
    }

    @Test func aSymlinkToDevZeroIsRefusedWithoutReadingIt() async throws {
        let passcodes = PasscodeStore(directory: state)
        try AtomicFile.makeDirectories(state.file("passcodes"))
        #expect(symlink("/dev/zero", try passcodes.path(user: "alice")) == 0)
        let result = await finishes { Result { () throws(StoreError) in try passcodes.record(user: "alice") } }
        guard case .failure(.damaged(_, let reason))? = result else {
            Issue.record("expected damage, got \(String(describing: result))")
            return
        }
        #expect(reason.contains("symbolic link"))
    }

    @Test func anOversizedFileIsDamage() throws {
        let passcodes = PasscodeStore(directory: state)
        try AtomicFile.makeDirectories(state.file("passcodes"))
        try Data(count: AtomicFile.maximumSize + 1).write(to: URL(fileURLWithPath: try passcodes.path(user: "alice")))
        #expect(throws: StoreError.self) { try passcodes.record(user: "alice") }
    }

    @Test func aStateDirectoryOpenToOthersIsRefused() throws {
        let root = try directory.privateDirectory("state")
        chmod(root, 0o755)
        #expect {
            try CounterStore(directory: state).transaction { $0[.user("alice")].biometricFailures = 1 }
        } throws: { error in
            guard case StoreError.unsafeDirectory(let path, _, let fix) = error else { return false }
            return path == root && fix == "chmod 700 '\(root)'"
        }
        #expect(throws: StoreError.self) { try PrintStore(directory: state).userNames() }
        chmod(root, 0o700)
        try CounterStore(directory: state).transaction { $0[.user("alice")].biometricFailures = 1 }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory away"))
    func aStateDirectoryOfAnotherUserIsRefused() throws {
        let root = try directory.privateDirectory("state")
        let nobody = try #require(getpwnam("nobody"))
        chown(root, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        #expect(throws: StoreError.self) { try PasscodeStore(directory: state).record(user: "alice") }
        #expect(throws: StoreError.self) { try CounterStore(directory: state).transaction { $0[.user("alice")].biometricFailures = 1 } }
    }

    @Test func staleTemporaryFilesAreRemovedUnderTheLockAndLiveOnesKept() throws {
        let counters = CounterStore(directory: state)
        try counters.transaction { $0[.user("alice")].biometricFailures = 1 }
        let folder = state.file("counters")
        // A writer killed with -9 (no such process), a writer still running (this one), and a very old file.
        let dead = folder + "/.user-alice.json.tmp-\(Int32.max - 7)-1234"
        let live = folder + "/.user-alice.json.tmp-\(getpid())-5678"
        let old = folder + "/.user-bob.json.tmp-\(getpid())-9999"
        for path in [dead, live, old] { try Data("secret".utf8).write(to: URL(fileURLWithPath: path)) }
        var ancient = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, old, &ancient, 0) == 0)
        try counters.transaction { $0[.user("alice")].biometricFailures = 2 }
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: live))
    }
}

/// Resumes a continuation once, from whichever side comes first.
private final class OnceBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T?, Never>?

    init(_ continuation: CheckedContinuation<T?, Never>) { self.continuation = continuation }

    func resume(_ value: T?) {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(returning: value)
    }
}
