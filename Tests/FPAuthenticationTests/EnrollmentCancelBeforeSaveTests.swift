import FPAuthentication
import FPStore
import Foundation
import Testing
import TestSupport

/// A cancel that comes after an enrollment's last scan but before its save (the fprintd face's
/// EnrollStop, Release or sleep at that moment) saves nothing: the client is told the
/// enrollment failed, so a print it was never told of must not be there.
@Suite struct EnrollmentCancelBeforeSaveTests {
    /// Whether a thread of this process waits in `flock` (Linux's syscall 73 on x86_64, the
    /// first field of /proc's `syscall` file of a thread blocked in it).
    static func aThreadWaitsInFlock() -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.contains { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/syscall", encoding: .utf8))?.hasPrefix("73 ") == true
        }
    }

    @Test func aCancelWhileTheSaveWaitsForTheLockSavesNothing() async throws {
        #if arch(x86_64)
        let harness = EngineHarness()
        let context = try await harness.context(String(repeating: "scan a\n", count: 5))
        let store = PrintStore(directory: harness.state)
        // The test holds the state's lock, so that the enrollment, its scans done, waits for it
        // in its save; nothing before the save takes it.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? store.withLock {
                holding.signal()
                release.wait()
            }
        }
        holder.start()
        await withCheckedContinuation { continuation in DispatchQueue.global().async { holding.wait(); continuation.resume() } }
        let enrollment = Task { () -> Bool in
            var saved = false
            for try await update in context.enrollAuthorizedByDesktop(.rightIndex, replace: false) {
                if case .saved = update { saved = true }
            }
            return saved
        }
        let deadline = Date().addingTimeInterval(20)
        while !Self.aThreadWaitsInFlock() {
            try #require(Date() < deadline, "the enrollment never reached its save")
            // A poll of /proc (the deadline above).
            try await Task.sleep(for: .milliseconds(10))
        }
        enrollment.cancel()
        release.signal()
        // Once nothing waits in flock the save holds the lock; taking it after means it ended.
        while Self.aThreadWaitsInFlock() {
            try #require(Date() < deadline, "the save never took the lock")
            // A poll of /proc (the deadline above).
            try await Task.sleep(for: .milliseconds(10))
        }
        let saved = try store.withLock { try store.print(user: "alice", reader: ReaderIdentity(driver: "fake", deviceID: "0"), finger: .rightIndex) }
        #expect(saved == nil, "a cancelled enrollment saved its print")
        // The stream a cancel ended looks finished to its reader (the fprintd face takes only
        // a `.saved` for a success): none came.
        #expect(try await enrollment.value == false, "a cancelled enrollment reported a save")
        #endif
    }
}
