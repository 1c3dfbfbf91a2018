import FPAuthentication
import FPCore
import FPReaders
import FPStore
import Foundation
import Testing
import TestSupport

/// Issue 27 §1: `repair --yes` left folder-level damage (`counters/`, `passcodes/`,
/// `prints/USER` of the wrong type, mode or owner) unrepaired and reported `prints/USER` as
/// fine. Each is found, moved aside, and replaced by the safest state for what it held.
@Suite struct FolderRepairTests {
    enum Folder: String, CaseIterable, Sendable { case counters, passcodes, printsOfAlice = "prints/alice" }
    enum Damage: String, CaseIterable, Sendable { case regularFile, symbolicLink, openToOthers, otherOwner }

    func damage(_ path: String, _ damage: Damage, aside: String) throws {
        switch damage {
        case .regularFile:
            try FileManager.default.moveItem(atPath: path, toPath: aside)
            try Data("not a folder".utf8).write(to: URL(fileURLWithPath: path))
        case .symbolicLink:
            // A link to a folder with the very same content: still never followed.
            try FileManager.default.moveItem(atPath: path, toPath: aside)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: aside)
        case .openToOthers:
            chmod(path, 0o777)
        case .otherOwner:
            let nobody = try #require(getpwnam("nobody"))
            chown(path, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        }
    }

    @Test(arguments: Folder.allCases, Damage.allCases)
    func aDamagedFolderIsFoundMovedAsideAndLeftInTheSafestState(folder: Folder, kind: Damage) async throws {
        if kind == .otherOwner && geteuid() != 0 { return }
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1")
        let path = harness.state.file(folder.rawValue)
        try damage(path, kind, aside: harness.directory.file("aside"))
        #expect(try await harness.evaluate(.biometrics, "scan alice-1") != nil, "nothing in the folder is used before the repair")

        let repair = StateRepair(stateDirectory: harness.state)
        let findings = try repair.findings()
        let finding = try #require(findings.first { $0.path == path }, "\(findings.map(\.path))")
        #expect(finding.kind == .folder)
        _ = try repair.repair(findings)
        #expect(try repair.findings().isEmpty)
        #expect(FileManager.default.fileExists(atPath: harness.directory.file("aside")) || kind == .openToOthers || kind == .otherOwner,
                "what a link pointed to is left alone")

        let passcode = try PasscodeStore(directory: harness.state).record(user: "alice")
        let prints = try PrintStore(directory: harness.state).prints(user: "alice", reader: nil)
        switch folder {
        case .counters:
            // Every count was lost with the folder: locked out, and her passcode unlocks.
            #expect(try await harness.verifyOnce() == .biometryLockout)
            _ = try await harness.context("", reader: false).unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"]))
            #expect(try await harness.verifyOnce() == nil)
        case .passcodes:
            #expect(passcode == nil)
            #expect(prints.isEmpty, "no print without a passcode")
        case .printsOfAlice:
            #expect(passcode != nil)
            #expect(prints.isEmpty)
            #expect(try await harness.verifyOnce() == .biometryNotEnrolled)
        }
    }

    /// passcodes/ and bob's prints folder damaged at once: whatever order they are found in,
    /// no user keeps a print without a passcode.
    @Test func passcodesAndAUsersPrintsDamagedTogetherLeaveNoPrintWithoutAPasscode() async throws {
        let harness = EngineHarness()
        for user in ["alice", "bob", "carol"] { try await harness.enroll(id: "\(user)-1", user: user) }
        chmod(harness.state.file("passcodes"), 0o777)
        chmod(harness.state.file("prints/bob"), 0o777)
        let repair = StateRepair(stateDirectory: harness.state)
        _ = try repair.repair(try repair.findings())
        #expect(try repair.findings().isEmpty)
        for user in ["alice", "bob", "carol"] {
            #expect(try PrintStore(directory: harness.state).prints(user: user, reader: nil).isEmpty, "\(user)")
            #expect(try PasscodeStore(directory: harness.state).record(user: user) == nil, "\(user)")
        }
    }

    /// A file where a driver folder should be, and a dangling link for a counter: both found and moved.
    @Test func strayFilesAndDanglingLinksAreFoundAndMoved() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1")
        let stray = harness.state.file("prints/alice/x.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: stray))
        let counter = CounterStore(directory: harness.state).path(for: .user("alice"))
        try FileManager.default.removeItem(atPath: counter)
        try FileManager.default.createSymbolicLink(atPath: counter, withDestinationPath: "/nonexistent/counter")
        let repair = StateRepair(stateDirectory: harness.state)
        let findings = try repair.findings()
        #expect(Set(findings.map(\.path)).isSuperset(of: [stray, counter]), "\(findings.map(\.path))")
        _ = try repair.repair(findings)
        #expect(try repair.findings().isEmpty)
        #expect(try await harness.verifyOnce() == .biometryLockout, "the lost counter is a locked one")
    }
}

/// A repair that cannot finish (here: a full disk) changes nothing, so everything stays locked:
/// before, the damaged counters folder was moved aside first and its locked replacement then
/// failed to be written, which left no counter at all (no failures, no lockout).
@Suite(.enabled(if: SmallFilesystem.available || SharedData.isCI, "mounting a small filesystem needs root"))
struct UnfinishedRepairTests {
    @Test func aRepairThatCannotWriteItsReplacementLeavesTheDamageInPlace() async throws {
        let harness = EngineHarness()
        let disk = try harness.smallStateFilesystem()
        try await harness.enroll(id: "alice-1")
        for _ in 0..<5 {
            let context = try await harness.context("scan mallory")
            _ = try? await context.verifyFinger(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
        }
        let counters = harness.state.file("counters")
        chmod(counters, 0o777)
        try disk.fill()
        let repair = StateRepair(stateDirectory: harness.state)
        #expect(throws: (any Error).self) { _ = try repair.repair(try repair.findings()) }
        disk.free()
        // Still there, still refused, and once repaired for real: locked out, never reset.
        #expect(FileManager.default.fileExists(atPath: counters + "/user-alice.json"))
        chmod(counters, 0o700)
        let context = try await harness.context("scan alice-1")
        await #expect(throws: AuthError.self) { _ = try await context.verifyFinger(reason: "x") }
    }
}
