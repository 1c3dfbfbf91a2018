import Foundation
import Testing
import TestSupport

/// Issue 36, finding 7, through the commands: a `.lock` that is a folder is what `status`
/// says is wrong (not `lockedOut: false`), what `repair` lists, and what `repair --yes` moves
/// aside, after which checks work again.
@Suite(.serialized) struct LockFileCommandTests {
    @Test(arguments: [Backend.fake, Backend.fakeThroughService])
    func aFolderAtTheLockIsShownListedAndMovedAside(backend: Backend) async throws {
        let bench = try await Bench(backend)
        try await bench.setPasscode()
        try await bench.enroll()
        let lock = bench.state + "/.lock"
        try? FileManager.default.removeItem(atPath: lock)
        try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
        #expect(try await bench.run(["verify"], touches: [.finger("p1")]).status != 0, "nothing can be counted")

        let status = try await bench.run(["status"])
        let biometry = status.json["biometry"] as? [String: Any]
        #expect(biometry?["lockedOut"] as? Bool == true && biometry?["unusableLock"] as? String == lock, "\(status.stdout)")
        #expect((status.json["passcode"] as? [String: Any])?["refused"] as? Bool == true, "\(status.stdout)")

        let listed = try await bench.run(["repair"])
        #expect(listed.status == 3 && listed.stdout.contains(lock), "\(listed.stdout)")
        let repaired = try await bench.run(["repair", "--yes"])
        #expect(repaired.status == 0, "\(repaired.stdout)")
        #expect(try await bench.run(["verify"], touches: [.finger("p1")]).status == 0, "checks work again")
        let after = try await bench.run(["status"])
        #expect((after.json["biometry"] as? [String: Any])?["lockedOut"] as? Bool == false, "\(after.stdout)")
    }
}
