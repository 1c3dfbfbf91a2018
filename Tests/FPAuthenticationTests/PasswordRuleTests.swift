import FPAuthentication
import FPStore
import Foundation
import Testing

/// Issue 39: iOS's rules on when the password or passcode is needed again before the next
/// finger, in the engine, with the clocks and the boot id injected (``EngineHarness/reboot()``).
@Suite struct PasswordRuleTests {
    static let hour: TimeInterval = 3600

    /// A harness whose rules are the ones named, the others off.
    func harness(boot: Bool = false, idle: Bool = false, age: Bool = false) -> EngineHarness {
        let base = EngineHarness()
        var configuration = base.configuration
        configuration.passwordAfterBoot = boot
        configuration.passwordAfterIdle = idle
        configuration.passwordAfterAge = age
        return base.with(configuration)
    }

    func status(_ harness: EngineHarness) async throws -> LockoutStatus {
        try await harness.context("", reader: false).lockoutStatus(.user("alice"))
    }

    func passwordProved(_ harness: EngineHarness) async throws -> Bool {
        try await harness.context("", reader: false).passwordProved()
    }

    func unlock(_ harness: EngineHarness) async throws {
        _ = try await harness.context("", reader: false).unlockWithPasscode(reason: "x", prompt: ListedPasscodes(["2468"]))
    }

    /// Verifies alice once; the refusal's rule is checked against the status's.
    func refusedBy(_ harness: EngineHarness) async throws -> PasswordRule? {
        let code = try await harness.verifyOnce()
        let status = try await status(harness)
        #expect((code == .biometryLockout) == (status.passwordRule != nil), "\(String(describing: code)) against \(status)")
        if let rule = status.passwordRule {
            #expect(status.lockedOut && status.message?.contains("needs the password first for user alice (rule \(rule.rawValue)): ") == true,
                    "\(status)")
            return rule
        }
        #expect(code == nil, "refused without a rule: \(String(describing: code))")
        return nil
    }

    func timesPath(_ harness: EngineHarness) -> String {
        CounterStore(directory: harness.state).timesPath(user: "alice")
    }

    @Test func afterABootTheFingerWaitsForThePasswordOrThePasscode() async throws {
        let harness = harness(boot: true)
        try await harness.enroll()
        #expect(try await refusedBy(harness) == nil, "the passcode of the enrollment was given in this boot")
        harness.reboot()
        #expect(try await refusedBy(harness) == .boot)
        #expect(try await status(harness).message?.contains("has started since the last password or passcode") == true)
        #expect(try await harness.verifyOnce() == .biometryLockout, "a refusal is no authentication")
        #expect(try await passwordProved(harness), "the proof says it lifted something")
        #expect(try await refusedBy(harness) == nil)
        harness.advance(by: 1000 * Self.hour)
        #expect(try await refusedBy(harness) == nil, "no time rule is on")
        harness.reboot()
        #expect(try await refusedBy(harness) == .boot)
        try await unlock(harness)
        #expect(try await refusedBy(harness) == nil, "the passcode satisfies it too")
    }

    /// An existing state directory has no record: the first start with the rule on asks for the
    /// password once, as after a boot; with the rules off nothing is written at all.
    @Test func aStateDirectoryFromBeforeTheRulesAsksForThePasswordOnce() async throws {
        let off = EngineHarness()
        try await off.enroll()
        #expect(try await off.verifyOnce() == nil)
        #expect(!FileManager.default.fileExists(atPath: timesPath(off)), "rules off write no record")
        var configuration = off.configuration
        configuration.passwordRulesByDefault = true
        let on = off.with(configuration)
        #expect(try await refusedBy(on) == .boot)
        #expect(try await status(on).message?.contains("no password or passcode has been recorded") == true)
        #expect(try await off.verifyOnce() == nil, "the same state with the rules off")
        #expect(try await passwordProved(on))
        #expect(try await refusedBy(on) == nil)
    }

    @Test func afterFortyEightHoursWithoutAnyAuthenticationTheFingerWaits() async throws {
        let harness = harness(idle: true)
        try await harness.enroll()
        harness.advance(by: 47 * Self.hour)
        #expect(try await refusedBy(harness) == nil)
        harness.advance(by: 47 * Self.hour)
        #expect(try await refusedBy(harness) == nil, "the match 47 hours ago counts")
        let left = try #require(try await status(harness).passwordNeededIn)
        #expect(left > 47.9 * Self.hour && left <= 48 * Self.hour, "\(left)")
        harness.advance(by: 48 * Self.hour + 60)
        #expect(try await refusedBy(harness) == .idle)
        harness.advance(by: 1000 * Self.hour)
        #expect(try await refusedBy(harness) == .idle)
        #expect(try await passwordProved(harness))
        #expect(try await refusedBy(harness) == nil)
    }

    @Test func after156HoursWithoutThePasswordAndFourWithoutAMatchTheFingerWaits() async throws {
        let harness = harness(age: true)
        try await harness.enroll()
        harness.advance(by: 155 * Self.hour)
        #expect(try await refusedBy(harness) == nil, "the passcode is 155 hours old")
        harness.advance(by: 2 * Self.hour)
        #expect(try await refusedBy(harness) == nil, "157 hours, but a match 2 hours ago")
        harness.advance(by: 3 * Self.hour + 59 * 60)
        #expect(try await refusedBy(harness) == nil, "a match 3 h 59 min ago")
        harness.advance(by: 4 * Self.hour + 60)
        #expect(try await refusedBy(harness) == .age)
        try await unlock(harness)
        #expect(try await refusedBy(harness) == nil)
    }

    /// Within the boot that kept the moments the boot clock decides: a wall clock set forward
    /// does not end the time a finger is accepted early, nor one set back lengthen it.
    @Test func aWallClockMovedWithinTheBootNeitherLiftsNorExtendsARule() async throws {
        let harness = harness(idle: true)
        try await harness.enroll()
        harness.moveWallClock(by: 100 * Self.hour)
        #expect(try await refusedBy(harness) == nil, "a wall clock set forward ended nothing")
        harness.moveWallClock(by: -300 * Self.hour)
        harness.advance(by: 48 * Self.hour + 60)
        #expect(try await refusedBy(harness) == .idle, "a wall clock set back lengthened nothing")
    }

    /// After a reboot only the wall clock is left, as for a timed lockout: one set forward ends
    /// the time early, and a moment it puts in the future (set back) proves nothing.
    @Test func afterARebootTheWallClockDecidesAndAMomentInTheFutureCountsAsNever() async throws {
        let harness = harness(idle: true)
        try await harness.enroll()
        #expect(try await refusedBy(harness) == nil)
        harness.reboot()
        #expect(try await refusedBy(harness) == nil, "the boot rule is off")
        harness.reboot()
        harness.moveWallClock(by: -Self.hour)
        #expect(try await refusedBy(harness) == .idle, "a last match an hour in the future")
        #expect(try await passwordProved(harness))
        harness.reboot()
        // The last match was kept before the clock went back an hour: 48 h and a minute after it.
        harness.moveWallClock(by: 49 * Self.hour + 60)
        #expect(try await refusedBy(harness) == .idle, "a wall clock set forward after a reboot ends the time early")
    }

    @Test func aRemoteLockHoldsWhateverTheSettingsAndClocksUntilThePasswordOrPasscode() async throws {
        let harness = EngineHarness()
        try await harness.enroll()
        try await harness.enroll(id: "bob-1", user: "bob")
        try await harness.context("", reader: false).lockBiometry()
        #expect(try await refusedBy(harness) == .remoteLock)
        #expect(try await status(harness).message?.contains("locked with fpbridge lock") == true)
        harness.advance(by: 1000 * Self.hour)
        harness.reboot()
        #expect(try await refusedBy(harness) == .remoteLock)
        // Identification leaves alice out, as it leaves out a user locked out by failures.
        let identify = try await harness.context("scan alice-1", user: "kiosk")
        await #expect(throws: AuthError.self) { _ = try await identify.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1)) }
        let bob = try await harness.context("scan bob-1", user: "kiosk")
        #expect(try await bob.identify(reason: "x").user == "bob")
        #expect(try await passwordProved(harness))
        #expect(try await refusedBy(harness) == nil)
        try await harness.context("", reader: false).lockBiometry()
        #expect(try await refusedBy(harness) == .remoteLock)
        try await unlock(harness)
        #expect(try await refusedBy(harness) == nil)
    }

    @Test func aDamagedRecordRefusesTheFingerUntilThePasswordWritesANewOne() async throws {
        let harness = EngineHarness()
        try await harness.enroll()
        try Data("{\"secret\": 12}".utf8).write(to: URL(fileURLWithPath: timesPath(harness)))
        #expect(try await refusedBy(harness) == .unusableRecord)
        #expect(try await status(harness).message?.contains(timesPath(harness)) == true, "the message names the file")
        #expect(try await passwordProved(harness))
        #expect(try await refusedBy(harness) == nil)
        #expect(try CounterStore(directory: harness.state).loadTimes(user: "alice").problem == nil)

        // A directory in its place cannot be written over: a repair puts a lock there instead.
        try FileManager.default.removeItem(atPath: timesPath(harness))
        try FileManager.default.createDirectory(atPath: timesPath(harness), withIntermediateDirectories: false)
        #expect(try await refusedBy(harness) == .unusableRecord)
        let repair = StateRepair(stateDirectory: harness.state)
        let findings = try repair.findings()
        #expect(findings.map(\.kind) == [.times] && findings.first?.path == timesPath(harness), "\(findings)")
        _ = try repair.repair(findings)
        #expect(try repair.findings().isEmpty)
        #expect(try await refusedBy(harness) == .remoteLock, "repaired to the safest record: a lock")
        try await unlock(harness)
        #expect(try await refusedBy(harness) == nil)
    }

    /// Each rule is its key in config.json; an absent key takes the host's default (on in
    /// fpbridged's system mode), and false turns a rule off there too.
    @Test func eachRuleIsItsKeyAndAnAbsentKeyTakesTheHostsDefault() async throws {
        let harness = EngineHarness()
        try await harness.enroll()
        let config = ConfigFile.path(in: harness.state)
        try Data(#"{"passwordAfterIdle": false, "passwordAfterAgeHours": 10}"#.utf8).write(to: URL(fileURLWithPath: config))
        let system = try AuthConfiguration.load(from: harness.state, passwordRulesByDefault: true)
        #expect(system.passwordAfterBoot == nil && system.passwordAfterIdle == false && system.passwordAfterAgeHours == 10)
        #expect(try AuthConfiguration.load(from: harness.state).passwordRulesByDefault == false)
        var rules = system
        rules.passcodeHashRounds = 1024
        let on = harness.with(rules)
        on.reboot()
        #expect(try await refusedBy(on) == .boot, "absent: on by the host's default")
        #expect(try await passwordProved(on))
        on.advance(by: 9 * Self.hour)
        #expect(try await refusedBy(on) == nil, "the password 9 hours ago")
        on.advance(by: 2 * Self.hour)
        #expect(try await refusedBy(on) == nil, "11 hours, but a match 2 hours ago")
        on.advance(by: 4 * Self.hour + 60)
        #expect(try await refusedBy(on) == .age, "more than 10 hours without the password, 4 without a match")
        rules.passwordAfterAge = false
        rules.passwordAfterBoot = false
        on.reboot()
        #expect(try await refusedBy(on.with(rules)) == nil, "every rule off")
        for bad in [#"{"passwordAfterIdleHours": 0}"#, #"{"passwordAfterAgeBiometryHours": 1e9}"#, #"{"passwordAfterBoot": "yes"}"#] {
            try Data(bad.utf8).write(to: URL(fileURLWithPath: config))
            #expect(throws: AuthError.self, "\(bad)") { _ = try AuthConfiguration.load(from: harness.state) }
        }
    }

    @Test func theRecordFitsItsFixedSizeAtItsLongest() throws {
        var times = AuthenticationTimes()
        let boot = String(repeating: "f", count: AuthenticationTimes.maximumBootID)
        times.secret = LockoutDeadline(wall: Date().addingTimeInterval(86_400 * 3650.123), uptime: 86_400 * 36_499.987654321, bootID: boot)
        times.biometry = times.secret
        times.lockedAt = Date().addingTimeInterval(0.123)
        let harness = EngineHarness()
        let store = CounterStore(directory: harness.state)
        try store.transaction { counters in counters[times: "alice"] = times }
        let data = try Data(contentsOf: URL(fileURLWithPath: store.timesPath(user: "alice")))
        #expect(data.count == CounterStore.fileSize)
        let read = try store.loadTimes(user: "alice")
        #expect(read.secret?.bootID == boot && read.biometry?.uptime == times.secret?.uptime && read.lockedAt != nil)
    }
}
