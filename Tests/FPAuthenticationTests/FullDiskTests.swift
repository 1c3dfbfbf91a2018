import FPAuthentication
import FPCore
import FPReaders
import FPStore
import SystemPackage
import Foundation
import Testing
import TestSupport

/// Issue 27 §1: a counter that cannot be written must stop everything. Each test fills a small
/// filesystem of its own (tmpfs, `size=`) to the last block under the state directory. Off CI
/// and without root they are skipped; under CI a missing mount fails them.
@Suite(.enabled(if: SmallFilesystem.available || SharedData.isCI, "mounting a small filesystem needs root"))
struct FullDiskTests {
    /// One verification of alice with one attempt: nil on a match, else the error.
    func verify(_ harness: EngineHarness, _ script: String) async throws -> AuthError? {
        let context = try await harness.context(script)
        do {
            _ = try await context.verifyFinger(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
            return nil
        } catch {
            return error
        }
    }

    func unlock(_ harness: EngineHarness, _ passcodes: [String]) async throws -> AuthErrorCode? {
        let context = try await harness.context("", reader: false)
        do {
            _ = try await context.unlockWithPasscode(reason: "x", prompt: ListedPasscodes(passcodes.map { Passcode($0) }))
            return nil
        } catch {
            return error.code
        }
    }

    @Test(arguments: SmallFilesystem.Kind.allCases)
    func everyFailureIsStillCountedOnAFullDisk(kind: SmallFilesystem.Kind) async throws {
        let harness = EngineHarness()
        let disk = try harness.smallStateFilesystem(bytes: 4 << 20, kind: kind)
        try await harness.enroll(id: "alice-1")
        try disk.fill()
        #expect(disk.freeBytes == 0)
        for attempt in 1...5 {
            let error = try await verify(harness, "scan mallory")
            #expect(error?.code == (attempt < 5 ? .authenticationFailed : .biometryLockout), "attempt \(attempt): \(String(describing: error))")
        }
        #expect(harness.counter().biometricFailures == 5)
        // Locked out: the right finger gets nothing, full disk or not.
        #expect(try await verify(harness, "scan alice-1")?.code == .biometryLockout)
        // Wrong passcodes are counted too, and the right one still unlocks.
        #expect(try await unlock(harness, ["1111", "2222"]) == .authenticationFailed)
        #expect(harness.counter().passcodeFailures == 2)
        #expect(try await unlock(harness, ["2468"]) == nil)
        let cleared = harness.counter()
        #expect(cleared.biometricFailures == 0 && !cleared.biometryLockedOut && cleared.passcodeFailures == 0, "\(cleared)")
        #expect(try await verify(harness, "scan alice-1") == nil)
        #expect(disk.freeBytes == 0, "nothing needed a new block")
    }

    @Test(arguments: SmallFilesystem.Kind.allCases)
    func aCounterThatCannotBeWrittenRefusesTheRightFingerToo(kind: SmallFilesystem.Kind) async throws {
        let harness = EngineHarness()
        let disk = try harness.smallStateFilesystem(bytes: 4 << 20, kind: kind)
        try await harness.enroll(id: "alice-1")
        // A counter file as fpbridge wrote it before counters had a fixed size: replacing it
        // needs a new block, which a full disk does not have.
        let path = CounterStore(directory: harness.state).path(for: .user("alice"))
        try Data(#"{"biometricFailures":0,"biometryLockedOut":false,"passcodeFailures":0}"#.utf8).write(to: URL(fileURLWithPath: path))
        try disk.fill()
        for script in ["scan mallory", "scan alice-1"] {
            let error = try await verify(harness, script)
            #expect(error?.code == .biometryLockout, "\(script): \(String(describing: error))")
            #expect(error?.message.contains(path) == true, "the message names the file: \(String(describing: error))")
            #expect(error?.message.contains("No space left on device") == true)
            // The advice is the full disk's, and a program can tell it by the cause.
            #expect(error?.cause == .diskFull && error?.message.contains("free space on the disk that holds the state directory") == true,
                    "\(String(describing: error))")
        }
        #expect(try await unlock(harness, ["2468"]) == .passcodeLockout, "a correct passcode is not reported either")
        // With space again, the file takes its fixed size and everything works.
        disk.free()
        #expect(try await verify(harness, "scan alice-1") == nil)
        #expect(CounterStore(directory: harness.state).isReserved(.user("alice")))
    }

    @Test func identificationKeepsCountingOnAFullDisk() async throws {
        let harness = EngineHarness()
        let disk = try harness.smallStateFilesystem()
        try await harness.enroll(id: "alice-1")
        try disk.fill()
        for attempt in 1...5 {
            let context = try await harness.context("scan stranger-\(attempt)", user: "kiosk")
            do {
                _ = try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
                Issue.record("a stranger was identified")
            } catch {
                #expect(error.code == (attempt < 5 ? .authenticationFailed : .biometryLockout), "attempt \(attempt): \(error)")
            }
        }
        #expect(harness.readerCounter().biometricFailures == 5)
        #expect(harness.readerCounter().biometryLockedUntil != nil)
    }

    @Test func everyCounterFileHasTheFixedSizeAndItsJSONFitsTheFirstSector() throws {
        var counter = AttemptCounter()
        counter.biometricFailures = AttemptCounter.maximumCount
        counter.passcodeFailures = AttemptCounter.maximumCount
        counter.biometryLockedOut = true
        // Every field at its longest: both deadlines on both clocks, the largest epochs.
        counter.biometryLockedUntil = LockoutClock.now().deadline(after: 86_400 * 300 + 0.123456789)
        counter.lockoutBeganAt = Date().addingTimeInterval(86_400 * 300)
        counter.passcodeLockedUntil = LockoutClock.now().deadline(after: 86_400 * 300 + 0.987654321)
        counter.epoch = AttemptCounter.maximumEpoch
        counter.lockoutEpoch = AttemptCounter.maximumEpoch
        let harness = EngineHarness()
        let store = CounterStore(directory: harness.state)
        try store.transaction { counters in counters[.user("alice")] = counter }
        let data = try Data(contentsOf: URL(fileURLWithPath: store.path(for: .user("alice"))))
        #expect(data.count == CounterStore.fileSize)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8.count < 512)
        let read = try store.load(.user("alice"))
        #expect(read.biometricFailures == AttemptCounter.maximumCount && read.epoch == AttemptCounter.maximumEpoch)
        #expect(read.passcodeLockedUntil?.uptime != nil, "the boot clock's deadline is kept: \(text)")

        // A reader's counter at its longest: its recent failed identifications (issue 50) take
        // the room a user's passcode deadline takes in a user's.
        var reader = counter
        reader.passcodeFailures = 0
        reader.passcodeLockedUntil = nil
        reader.strangerTouches = Double(AttemptCounter.maximumCount) - 0.000123
        reader.strangerTouchesAt = LockoutClock(wall: Date().addingTimeInterval(86_400 * 300), uptime: 86_400 * 36_499.987654321,
                                                bootID: LockoutClock.now().bootID).moment
        let scope = CounterScope.reader(driver: String(repeating: "d", count: 40), deviceID: "0")
        try store.transaction { counters in counters[scope] = reader }
        let readerText = String(decoding: try Data(contentsOf: URL(fileURLWithPath: store.path(for: scope))), as: UTF8.self)
        #expect(readerText.trimmingCharacters(in: .whitespacesAndNewlines).utf8.count < 512, "\(readerText)")
        let readBack = try store.load(scope)
        #expect(readBack.strangerTouches == reader.strangerTouches.rounded(toPlaces: 3) && readBack.strangerTouchesAt?.uptime != nil, "\(readerText)")
        // On a user's counter with a passcode deadline there is no room, and no such count is kept.
        var both = counter
        both.strangerTouches = 5
        both.strangerTouchesAt = LockoutClock.now().moment
        try store.transaction { counters in counters[.user("alice")] = both }
        #expect(try store.load(.user("alice")).strangerTouches == 0)
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = (0..<places).reduce(1.0) { value, _ in value * 10 }
        return (self * scale).rounded() / scale
    }
}

/// Issue 53: the store's filesystem errors carry errno, so that the advice tells a full disk
/// from a directory this user may not write (it said "free space or fix the state directory"
/// for both).
struct StoreErrorKindTests {
    @Test func theAdviceFollowsWhatTheFilesystemSaid() {
        let cases: [(Errno?, FileSystemFailure?, AuthErrorCause?)] = [
            (.noSpace, .full, .diskFull), (.diskQuotaExceeded, .full, .diskFull),
            (.permissionDenied, .notWritable, .stateNotWritable), (.readOnlyFileSystem, .notWritable, .stateNotWritable),
            (.ioError, .other, nil), (nil, nil, nil),
        ]
        for (errno, kind, cause) in cases {
            let error = StoreError.io(path: "/state/counters/alice.json", reason: errno?.description ?? "something else", errno: errno)
            #expect(error.fileSystemFailure == kind, "\(String(describing: errno))")
            let mapped = AuthError(error)
            #expect(mapped.cause == cause && mapped.message.contains("/state/counters/alice.json"), "\(mapped)")
        }
    }
}
