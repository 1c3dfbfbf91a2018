import FPAuthentication
import FPCore
import FPReaders
import FPStore
import Foundation
import Synchronization
import TestSupport

/// A state directory with fast scrypt settings, and contexts on fake readers.
final class EngineHarness: Sendable {
    let directory: TemporaryDirectory
    let configuration: AuthConfiguration
    /// How far the engine's clocks (wall and boot alike) run ahead of the real ones: a timed
    /// lockout is waited out by moving it, not by sleeping.
    private let offset: Mutex<TimeInterval>
    /// How the engine's clocks differ from the real ones besides ``offset``: the wall clock
    /// alone moved (set forward or back), and a boot the test made up (its id, and the real
    /// boot clock's reading, offset included, when it began).
    private let moved: Mutex<(wall: TimeInterval, boot: (id: String, began: TimeInterval)?)>

    init() {
        offset = Mutex(0)
        moved = Mutex((0, nil))
        directory = TemporaryDirectory()
        var configuration = AuthConfiguration()
        configuration.passcodeHashRounds = 1024
        configuration.scanTimeoutSeconds = 5
        self.configuration = configuration
    }

    private init(directory: TemporaryDirectory, configuration: AuthConfiguration, offset: TimeInterval,
                 moved: (wall: TimeInterval, boot: (id: String, began: TimeInterval)?)) {
        self.directory = directory
        self.configuration = configuration
        self.offset = Mutex(offset)
        self.moved = Mutex(moved)
    }

    /// Moves the engine's clocks on, as time passing would.
    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }

    /// Sets the wall clock alone forward (or back, negative), as an administrator or NTP does.
    func moveWallClock(by seconds: TimeInterval) {
        moved.withLock { $0.wall += seconds }
    }

    /// The machine starts again: a new boot id, and a boot clock from 0.
    func reboot() {
        let now = LockoutClock.now().uptime + offset.withLock { $0 }
        moved.withLock { $0.boot = (UUID().uuidString.lowercased(), now) }
    }

    /// The clocks the engine sees now.
    func clock() -> LockoutClock {
        let real = LockoutClock.now(), ahead = offset.withLock { $0 }, moved = moved.withLock { $0 }
        let uptime = real.uptime + ahead - (moved.boot?.began ?? 0)
        return LockoutClock(wall: real.wall.addingTimeInterval(ahead + moved.wall), uptime: uptime, bootID: moved.boot?.id ?? real.bootID)
    }

    /// The same state directory with other numbers.
    func with(_ configuration: AuthConfiguration) -> EngineHarness {
        EngineHarness(directory: directory, configuration: configuration, offset: offset.withLock { $0 }, moved: moved.withLock { $0 })
    }

    /// The same state directory with another scan timeout.
    func with(scanTimeout seconds: Double) -> EngineHarness {
        var configuration = configuration
        configuration.scanTimeoutSeconds = seconds
        return with(configuration)
    }

    var state: StateDirectory { StateDirectory(path: directory.file("state")) }

    /// A filesystem of `bytes` mounted as the state directory (root only; see ``SmallFilesystem``).
    func smallStateFilesystem(bytes: Int = 512 * 1024, kind: SmallFilesystem.Kind = .tmpfs) throws -> SmallFilesystem {
        try SmallFilesystem(at: state.path, bytes: bytes, kind: kind)
    }

    func context(_ script: String, user: String = "alice", reader: Bool = true) async throws -> AuthenticationContext {
        var fake: FakeReader?
        if reader {
            fake = FakeReader(script: try FakeScript.parse(script))
            try await fake!.open()
        }
        var environment = AuthEnvironment(user: user, reader: fake, stateDirectory: state, configuration: configuration)
        environment.clock = { [self] in clock() }
        return AuthenticationContext(environment: environment)
    }

    /// Enrolls as a user does: with the passcode, which is set to 2468 first when the user has none.
    func enroll(_ finger: Finger = .rightIndex, id: String = "alice-1", user: String = "alice",
                replace: Bool = false) async throws {
        if try PasscodeStore(directory: state).userNames().contains(user) == false { try await setPasscode(user: user) }
        let context = try await context(String(repeating: "scan \(id)\n", count: 5), user: user)
        for try await _ in Enrollment(context: context).enroll(finger, replace: replace, prompt: ListedPasscodes(["2468"])) {}
    }

    func setPasscode(_ passcode: String = "2468", user: String = "alice") async throws {
        try await PasscodeManager(context: try await context("", user: user, reader: false)).set(Passcode(passcode))
    }

    func counter(_ user: String = "alice") -> AttemptCounter {
        CounterStore(directory: state).counter(for: .user(user))
    }

    /// The fake reader's identification counter.
    func readerCounter() -> AttemptCounter {
        CounterStore(directory: state).counter(for: .reader(driver: "fake", deviceID: "0"))
    }

    /// Runs an evaluation and returns its error code (nil on success).
    func evaluate(_ policy: AuthPolicy, _ script: String, passcodes: [String] = [],
                  configure: (AuthenticationContext) -> Void = { _ in }) async throws -> AuthErrorCode? {
        let context = try await context(script)
        configure(context)
        do {
            _ = try await context.evaluate(policy, reason: "test", prompt: ListedPasscodes(passcodes.map { Passcode($0) }))
            return nil
        } catch {
            return error.code
        }
    }

    /// Verifies alice's finger once (one failed match allowed) and returns the error code
    /// (nil on a match).
    func verifyOnce(_ script: String = "scan alice-1") async throws -> AuthErrorCode? {
        let context = try await context(script)
        do {
            _ = try await context.verifyFinger(reason: "x", options: BiometricOptions(maxFailedMatches: 1))
            return nil
        } catch {
            return error.code
        }
    }
}
