import FPKiosk
import FPLocalAPI
import FPVocabulary
import Foundation
import Synchronization
import Testing
import TestSupport

/// What the kiosk page is told for each of the service's answers to a PIN.
@Suite struct PinPadAnswerTests {
    /// A service that answers every PIN with `error`.
    struct Refusing: KioskBackend {
        let error: AuthError
        func reader() async throws -> ReaderReport.Reader {
            ReaderReport.Reader(identity: "fake/0", name: nil, present: true, temperature: nil, heat: nil)
        }
        func identify(timeoutSeconds: Double, claimedUser: String?, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> Identified { throw error }
        func checkPasscode(user: String, passcode: String, unmapped: Bool) async throws -> Identified { throw error }
    }

    private func answer(_ error: AuthError) async -> PinPad.Answer {
        await PinPad(backend: Refusing(error: error), board: KioskBoard(clock: VirtualClock())).check(user: "alice", pin: "1")
    }

    /// The kiosk's budget and the user's limit are told apart by their codes, whatever the
    /// service's message says: the old rule read "kiosk" in the message.
    @Test func theKiosksRestAndTheUsersLockoutAreToldApartByCode() async {
        let resting = await answer(AuthError(.pinPadResting, "resting", retryAfter: 42.2))
        #expect(resting.message == "pinPadResting" && resting.parameters["seconds"] == "43" && resting.retryAfter == 42.2)
        let locked = await answer(AuthError(.passcodeLockout, "too many wrong PINs at the kiosk for alice", retryAfter: 5))
        #expect(locked.message == "pinLocked" && locked.parameters["seconds"] == "5")
        let wrong = await answer(AuthError(.authenticationFailed, "wrong user or PIN"))
        #expect(!wrong.ok && wrong.message == "pinWrong")
    }

    /// What the PIN pad was asked: the name and whether it was unmapped, for badge tests.
    final class Recording: KioskBackend, @unchecked Sendable {
        let asked = Mutex<[(user: String, unmapped: Bool)]>([])
        func reader() async throws -> ReaderReport.Reader {
            ReaderReport.Reader(identity: "fake/0", name: nil, present: true, temperature: nil, heat: nil)
        }
        func identify(timeoutSeconds: Double, claimedUser: String?, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> Identified {
            throw AuthError(.timedOut, "no finger")
        }
        func checkPasscode(user: String, passcode: String, unmapped: Bool) async throws -> Identified {
            asked.withLock { $0.append((user, unmapped)) }
            guard user == "alice", passcode == "2468", !unmapped else { throw AuthError(.authenticationFailed, "wrong user or PIN") }
            return Identified(user: user, session: "token")
        }
    }

    /// With `--badges`, a known number is its user's name at fpbridged, and an unknown one is
    /// still sent (as `unmapped`, so that fpbridged counts a guess) and answered as a wrong PIN.
    @Test func aBadgeNumberIsItsUsersNameAndAnUnknownOneIsAWrongPINThatStillCounts() async throws {
        let backend = Recording()
        let badges = try BadgeList(parsing: "# staff\n1001 alice\n\n2002 bob\n", source: "badges")
        let pad = PinPad(backend: backend, board: KioskBoard(clock: VirtualClock()), badges: badges)
        let right = await pad.check(user: " 1001 ", pin: "2468")
        #expect(right.ok && right.user == "alice" && right.session == "token")
        let unknown = await pad.check(user: "9999", pin: "2468")
        let wrong = await pad.check(user: "1001", pin: "1111")
        #expect(unknown == wrong && unknown.message == "pinWrong")
        // A name typed where a badge number goes maps to nobody: never alice's passcode.
        let name = await pad.check(user: "alice", pin: "2468")
        #expect(name == wrong)
        let asked = backend.asked.withLock { $0.map { "\($0.user) \($0.unmapped)" } }
        #expect(asked == ["alice false", "9999 true", "alice false", "alice true"])
    }

    @Test func aBadgeFileWithAFaultIsRefusedNamingTheLine() throws {
        func refusal(_ text: String) -> String {
            do { _ = try BadgeList(parsing: text, source: "b.txt"); return "" } catch { return error.description }
        }
        #expect(refusal("1001 alice\n12a4 bob\n").contains("b.txt line 2: '12a4' is not a badge number"))
        #expect(refusal("1001 alice\n\n1001 bob\n").contains("line 3: badge 1001 is already on line 1"))
        #expect(refusal("1001\n").contains("line 1: expected 'NUMBER NAME'"))
        #expect(refusal("1001 alice extra\n").contains("line 1: expected 'NUMBER NAME'"))
        #expect(refusal("1001 alice\n# 2002 bob\n").isEmpty)
        // A file others could change decides who a badge signs in as: refused.
        let directory = TemporaryDirectory()
        let path = directory.file("badges")
        try "1001 alice\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o664)
        #expect(throws: BadgeListError.self) { try BadgeList(path: path) }
        chmod(path, 0o644)
        #expect(try BadgeList(path: path).name(for: "1001") == "alice")
        // Owned by someone who is neither root nor the kiosk (the tests run as root, who may chown).
        if geteuid() == 0, chown(path, 12345, 12345) == 0 {
            #expect(throws: BadgeListError.self) { try BadgeList(path: path) }
            #expect(try BadgeList(path: path, own: 12345).count == 1)
        }
        symlink(path, directory.file("link"))
        #expect(throws: BadgeListError.self) { try BadgeList(path: directory.file("link")) }
    }
}
