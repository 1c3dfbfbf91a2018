import FPAuthentication
import FPCore
import FPReaders
import FPStore
import Foundation
import Testing

/// Identification reads every user's prints and counter in one pass (`StatePass`): the
/// state directory and its top folders are checked once, not once a user. Every check below
/// them must still be made for every user: these would fail if the pass skipped one.
@Suite struct IdentificationPassTests {
    enum Answer: Equatable, Sendable {
        case identified(String)
        case refused(String)
    }

    func identify(_ harness: EngineHarness, _ script: String) async throws -> Answer {
        let context = try await harness.context(script, user: "kiosk")
        do {
            return .identified(try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1)).user)
        } catch {
            return .refused(String(describing: error))
        }
    }

    func enrolledAliceAndBob() async throws -> EngineHarness {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        try await harness.enroll(id: "bob-1", user: "bob")
        #expect(try await identify(harness, "scan bob-1") == .identified("bob"))
        return harness
    }

    /// A folder below `prints/` open to others stops identification, naming it: others could
    /// have put a print there. Checked at each level a pass does not check once.
    @Test(arguments: ["prints/bob", "prints/bob/fake", "prints/bob/fake/0"])
    func aFolderBelowPrintsOpenToOthersIsRefusedByName(_ folder: String) async throws {
        let harness = try await enrolledAliceAndBob()
        let path = harness.state.path + "/" + folder
        chmod(path, 0o755)
        defer { chmod(path, 0o700) }
        let answer = try await identify(harness, "scan alice-1")
        guard case .refused(let reason) = answer else {
            Issue.record("identified through an unsafe folder: \(answer)")
            return
        }
        #expect(reason.contains(path) && reason.contains("open to other users"), "\(reason)")
    }

    /// A print file that is a link is never read, and the user behind it is not identified.
    @Test func aPrintFileThatIsALinkIsNotFollowed() async throws {
        let harness = try await enrolledAliceAndBob()
        let file = harness.state.path + "/prints/bob/fake/0/right-index.json"
        let moved = harness.state.path + "/bob-print.json"
        #expect(rename(file, moved) == 0)
        #expect(symlink(moved, file) == 0)
        #expect(try await identify(harness, "scan alice-1") == .identified("alice"))
        #expect(try await identify(harness, "scan bob-1") != .identified("bob"))
    }

    /// A user's counter that cannot be read locks that user out, read within the pass or not.
    @Test(arguments: ["garbage", "link", "fifo"])
    func aDamagedCounterLocksItsUserOut(_ damage: String) async throws {
        let harness = try await enrolledAliceAndBob()
        let counter = CounterStore(directory: harness.state).path(for: .user("bob"))
        unlink(counter)
        switch damage {
        case "garbage": #expect(FileManager.default.createFile(atPath: counter, contents: Data("{not json".utf8),
                                                              attributes: [.posixPermissions: 0o600]))
        case "link": #expect(symlink("/dev/zero", counter) == 0)
        default: #expect(mkfifo(counter, 0o600) == 0)
        }
        // Read within the pass itself: identification's answer alone would not show it, since
        // the match is decided on a locked read of the counter again.
        #expect(CounterStore(directory: harness.state).counter(for: .user("bob"), in: try StatePass(harness.state)).damaged)
        #expect(try await identify(harness, "scan bob-1") != .identified("bob"))
        #expect(try await identify(harness, "scan alice-1") == .identified("alice"))
    }

    /// A top folder that fails the pass's check is not vouched for: its reads take the
    /// ordinary path, with its errors.
    @Test func aTopFolderThatFailsThePassIsCheckedAgainWhereItIsRead() async throws {
        let harness = try await enrolledAliceAndBob()
        let reader = ReaderIdentity(driver: "fake", deviceID: "0")
        for folder in ["prints", "counters"] { chmod(harness.state.path + "/" + folder, 0o755) }
        defer { for folder in ["prints", "counters"] { chmod(harness.state.path + "/" + folder, 0o700) } }
        let pass = try StatePass(harness.state)
        #expect(throws: StoreError.self) { try PrintStore(directory: harness.state).entries(user: "bob", reader: reader, in: pass) }
        // Not used, and not called damaged: the folder is unsafe, and the counter says so.
        let counter = CounterStore(directory: harness.state).counter(for: .user("bob"), in: pass)
        #expect(counter.unusable && !counter.damaged && counter.unreadable?.contains("open to other users") == true, "\(counter)")
    }

    /// A pass vouches only for the state directory it checked.
    @Test func aPassVouchesForNoOtherStateDirectory() async throws {
        let checked = try await enrolledAliceAndBob(), other = try await enrolledAliceAndBob()
        let pass = try StatePass(checked.state)
        for folder in ["prints", "counters"] { chmod(other.state.path + "/" + folder, 0o755) }
        defer { for folder in ["prints", "counters"] { chmod(other.state.path + "/" + folder, 0o700) } }
        let reader = ReaderIdentity(driver: "fake", deviceID: "0")
        #expect(throws: StoreError.self) { try PrintStore(directory: other.state).entries(user: "bob", reader: reader, in: pass) }
        // Not used, and not called damaged: the folder is unsafe, and the counter says so.
        let counter = CounterStore(directory: other.state).counter(for: .user("bob"), in: pass)
        #expect(counter.unusable && !counter.damaged && counter.unreadable?.contains("open to other users") == true, "\(counter)")
        // The same reads through the directory it checked.
        #expect(try PrintStore(directory: checked.state).entries(user: "bob", reader: reader, in: pass).count == 1)
        #expect(!CounterStore(directory: checked.state).counter(for: .user("bob"), in: pass).damaged)
    }
}
