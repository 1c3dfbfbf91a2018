import FPAuthentication
import FPCore
import FPStore
import Foundation
import Testing

/// Issue 36, finding 7: a `.lock` that was a folder refused every check, yet `repair` found
/// nothing, `repair --yes` did nothing, and the status said `lockedOut: false`. Anything but
/// a regular file there (a folder, a FIFO, a link) is now a finding naming it, moved aside
/// by the repair, and a lockout in the status until then.
@Suite struct LockFileRepairTests {
    enum Kind: String, CaseIterable, Sendable { case folder, fifo, symbolicLink }

    @Test(arguments: Kind.allCases)
    func aLockThatIsNotAFileIsFoundMovedAsideAndShownInTheStatus(kind: Kind) async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1")
        #expect(try await harness.verifyOnce() == nil)
        let lock = harness.state.file(".lock")
        try? FileManager.default.removeItem(atPath: lock)
        let target = harness.directory.file("elsewhere")
        switch kind {
        case .folder: try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
        case .fifo: #expect(mkfifo(lock, 0o600) == 0)
        // A link is never followed: the lock it leads to is not the one other processes take.
        case .symbolicLink: try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: target)
        }
        #expect(try await harness.verifyOnce() != nil, "nothing can be counted, so nothing is checked")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing was made where the link points")

        let status = try await harness.context("", reader: false).lockoutStatus(.user("alice"))
        #expect(status.lockedOut && status.unusableLock == lock && status.attemptsLeftBeforeLockout == 0)
        #expect(status.message?.contains(lock) == true, "\(status.message ?? "no message")")

        let repair = StateRepair(stateDirectory: harness.state)
        let findings = try repair.findings()
        let finding = try #require(findings.first { $0.path == lock }, "\(findings.map(\.path))")
        #expect(finding.kind == .lock && finding.problem.contains("not a regular file"))
        let moved = try repair.repair(findings)
        #expect(moved.count == 1 && moved[0].contains("/damaged/"), "\(moved)")
        #expect(try repair.findings().isEmpty)
        #expect(try await harness.verifyOnce() == nil, "checks work again")
        let after = try await harness.context("", reader: false).lockoutStatus(.user("alice"))
        #expect(!after.lockedOut && after.unusableLock == nil)
    }
}
