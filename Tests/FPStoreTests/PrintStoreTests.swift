import FPCore
import FPStore
import Foundation
import Testing
import TestSupport

@Suite struct PrintStoreTests {
    let directory = TemporaryDirectory()
    var store: PrintStore { PrintStore(directory: StateDirectory(path: directory.file("state"))) }
    let reader = ReaderIdentity(driver: "virtual_image", deviceID: "0")

    func record(_ finger: Finger = .rightIndex, bytes: [UInt8] = Array("FP3-some-print".utf8)) -> PrintRecord {
        PrintRecord(user: "alice", finger: finger, reader: reader, enrolledAt: Date(timeIntervalSince1970: 1_000_000),
                    storedOnDevice: false, print: PrintData(bytes: bytes))
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }

    @Test func savesAndLoadsWithPrivatePermissions() throws {
        try store.save(record())
        let path = try store.path(user: "alice", reader: reader, finger: .rightIndex)
        #expect(try store.print(user: "alice", reader: reader, finger: .rightIndex) == record())
        #expect(try mode(path) == 0o600)
        #expect(try mode((path as NSString).deletingLastPathComponent) == 0o700)
        #expect(try mode(directory.file("state")) == 0o700)
        #expect(try store.users(reader: reader) == ["alice"])
    }

    @Test func aDamagedFileIsReportedByPathAndLeftAlone() throws {
        try store.save(record())
        let path = try store.path(user: "alice", reader: reader, finger: .rightIndex)
        let original = try #require(FileManager.default.contents(atPath: path))
        let truncated = original.prefix(original.count / 2)
        try truncated.write(to: URL(fileURLWithPath: path))
        #expect {
            try store.prints(user: "alice", reader: reader)
        } throws: { error in
            guard case .damaged(let damagedPath, _) = error as? StoreError else { return false }
            return damagedPath == path
        }
        #expect(FileManager.default.contents(atPath: path) == truncated)
    }

    @Test func aPrintOfThreeBytesIsRejectedBeforeAnyReaderSeesIt() throws {
        try store.save(record(bytes: [0x46, 0x50, 0x33]))
        #expect(throws: StoreError.self) { try store.prints(user: "alice", reader: reader) }
    }

    @Test func theEnrollmentHashChangesOnEnrollAndDelete() throws {
        #expect(try store.enrollmentStateHash(user: "alice") == nil)
        try store.save(record())
        let one = try #require(try store.enrollmentStateHash(user: "alice"))
        #expect(try store.enrollmentStateHash(user: "alice") == one)
        try store.save(record(.leftThumb))
        let two = try #require(try store.enrollmentStateHash(user: "alice"))
        #expect(two != one)
        try store.delete(user: "alice", reader: reader, finger: .leftThumb)
        #expect(try store.enrollmentStateHash(user: "alice") == one)
    }

    @Test(arguments: ["", "../etc", ".hidden", "a/b", String(repeating: "x", count: 65)])
    func unsafeUserNamesAreRefused(name: String) {
        #expect(throws: StoreError.invalidUserName(name)) { try store.prints(user: name, reader: nil) }
    }

    @Test func damagedCountersReadAsLockedOut() throws {
        let counters = CounterStore(directory: StateDirectory(path: directory.file("state")))
        try counters.transaction { $0[.user("alice")].biometricFailures = 2 }
        let path = counters.path(for: .user("alice"))
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
        let counter = counters.counter(for: .user("alice"))
        #expect(counter.damaged && counter.biometryLockedOut)
        try counters.transaction { $0[.user("alice")].biometricFailures += 1 }
        #expect(FileManager.default.contents(atPath: path) == Data("{ not json".utf8))
    }

    // What a match does to its counter: clear the failures. With none to clear, nothing is
    // written (an atomic write would replace the file, so its inode tells).
    @Test func aCounterSetToWhatItHoldsIsNotRewritten() throws {
        let counters = CounterStore(directory: StateDirectory(path: directory.file("state")))
        let alice = CounterScope.user("alice")
        let clearFailures = { (set: inout CounterSet) in
            var counter = set[alice]
            counter.biometricFailures = 0
            set[alice] = counter
        }
        try counters.transaction(clearFailures)
        #expect(!FileManager.default.fileExists(atPath: counters.path(for: alice)))

        try counters.transaction { $0[alice].biometricFailures = 2 }
        let path = counters.path(for: alice)
        try backdate(path)
        try counters.transaction(clearFailures)
        #expect(try !isBackdated(path))
        #expect(try counters.load(alice) == AttemptCounter())

        try backdate(path)
        try counters.transaction(clearFailures)
        #expect(try isBackdated(path))
        // Set without being read first, to a different value: still written.
        try counters.transaction { $0[alice] = { var c = AttemptCounter(); c.passcodeFailures = 1; return c }() }
        #expect(try !isBackdated(path))
        #expect(try counters.load(alice).passcodeFailures == 1)
    }

    // Counters are rewritten in place (the inode stays): a write shows in the modification time.
    func backdate(_ path: String) throws {
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    func isBackdated(_ path: String) throws -> Bool {
        var info = stat()
        #expect(stat(path, &info) == 0)
        return info.st_mtim.tv_sec == 1_000_000
    }

    @Test func concurrentUpdatesLoseNoCount() async throws {
        let counters = CounterStore(directory: StateDirectory(path: directory.file("state")))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask { _ = try? counters.transaction { $0[.user("alice")].biometricFailures += 1 } }
            }
        }
        #expect(counters.counter(for: .user("alice")).biometricFailures == 40)
    }

    // A negative count would grant a million attempts; an absurd one is damage too.
    @Test(arguments: ["-1", "-1000000", "9223372036854775807", "1000001"])
    func outOfRangeCountsAreDamage(value: String) throws {
        let counters = CounterStore(directory: StateDirectory(path: directory.file("state")))
        try counters.transaction { $0[.user("alice")].biometricFailures = 1 }
        let path = counters.path(for: .user("alice"))
        let text = #"{"biometricFailures": VALUE, "biometryLockedOut": false, "passcodeFailures": 0}"#
        try Data(text.replacingOccurrences(of: "VALUE", with: value).utf8).write(to: URL(fileURLWithPath: path))
        let counter = counters.counter(for: .user("alice"))
        #expect(counter.damaged && counter.biometryLockedOut)
        #expect(throws: StoreError.self) { try counters.load(.user("alice")) }
    }

    @Test func aDamagedPrintFileIsListedAsDamagedBesideTheGoodOnes() throws {
        try store.save(record(.rightIndex))
        try store.save(record(.leftThumb))
        let path = try store.path(user: "alice", reader: reader, finger: .leftThumb)
        try Data("{ broken".utf8).write(to: URL(fileURLWithPath: path))
        let entries = try store.entries(user: "alice", reader: nil)
        #expect(entries.compactMap(\.record).map(\.finger) == [.rightIndex])
        #expect(entries.count == 2)
        #expect(throws: StoreError.self) { try store.prints(user: "alice", reader: nil) }
    }
}
