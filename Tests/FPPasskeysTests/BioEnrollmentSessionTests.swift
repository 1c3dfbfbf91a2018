@testable import FPPasskeys
import Crypto
@testable import FPAuthentication
import Testing
import TestSupport

/// An enrollment's timers, on a clock the test moves: the host's own wait for a sample, and the
/// enrollment a host stopped following. Each ends the enrollment with nothing saved, and the
/// reader let go.
@Suite struct BioEnrollmentSessionTests {
    let harness = PasskeyHarness()

    /// A bio enrollment request with a token got for the PIN 2468.
    func request(_ subcommand: BioEnrollmentSubcommand, _ parameters: [CBORValue: CBORValue], token: SymmetricKey) -> [UInt8] {
        let params = CBORValue.map(parameters)
        let mac = PinUvAuthProtocol.two.authenticate(token, [1, UInt8(subcommand.rawValue)] + CBOREncoder.encode(params))
        return [CTAP2Command.bioEnrollment.rawValue]
            + CBOREncoder.encode(.map([.int(1): .int(1), .int(2): .int(subcommand.rawValue), .int(3): params, .int(4): .int(2), .int(5): .bytes(mac)]))
    }

    /// alice enrolled, her authenticator on a reader playing `script` with an enrollment session
    /// on `clock`, and a token got for her PIN.
    func setUp(_ script: String, clock: ManualClock) async throws -> (CTAP2Authenticator, BioEnrollmentSession, SymmetricKey) {
        try await harness.enrollAlice()
        let device = CTAP2DeviceState(clock: clock)
        let authenticator = try await harness.authenticator(script, device: device)
        let entry = try await harness.context("").passkeys(protection: .development)
            .verifyPIN(hash: Array(SHA256.hash(data: Array("2468".utf8)).prefix(16)))
        return (authenticator, device.enrollments, device.pin.give([.bioEnrollment], relyingParty: nil, version: .two, verification: nil, entry: entry))
    }

    /// One touch, then the next only after a minute (real time: the reader's wait, cancelled
    /// with the enrollment, which no test waits out).
    let slowFinger = "scan alice-2\nwait 60000\n" + String(repeating: "scan alice-2\n", count: 4)

    func leftIndexSaved() async throws -> Bool {
        try await harness.context("").environment.prints.prints(user: "alice", reader: nil).contains { $0.finger == .leftIndex }
    }

    @Test func aSampleNotGivenWithinTheHostsTimeoutEndsTheEnrollment() async throws {
        let clock = ManualClock()
        let (authenticator, enrollments, token) = try await setUp("wait 60000\n" + slowFinger, clock: clock)
        let begin = Task { await authenticator.answer(request(.enrollBegin, [.int(3): .int(1000)], token: token)) }
        while clock.sleepers == 0 { await Task.yield() }
        clock.advance(by: .seconds(1))
        #expect(await begin.value.status == .userActionTimeout)
        #expect(enrollments.run == nil)
        let next = await authenticator.answer(request(.enrollCaptureNextSample, [.int(1): .bytes([2])], token: token))
        #expect(next.status == .invalidParameter, "no enrollment is left: \(next)")
        #expect(try await !leftIndexSaved())
    }

    @Test func anEnrollmentTheHostStopsFollowingSavesNothingThoughEveryScanWasTaken() async throws {
        let clock = ManualClock()
        // Every touch at once: the reader has all it needs before the host asks for a second sample.
        let (authenticator, enrollments, token) = try await setUp(String(repeating: "scan alice-2\n", count: 5), clock: clock)
        let begin = await authenticator.answer(request(.enrollBegin, [:], token: token))
        #expect(begin.status == .ok, "\(begin)")
        let run = try #require(enrollments.run)
        while !run.isWaitingToSave { await Task.yield() }
        // The host never asks again: the idle watch gives it up, and the waiting save with it.
        while clock.sleepers < 2 { await Task.yield() }
        clock.advance(by: BioEnrollmentSession.idleLimit)
        while !run.isOver { await Task.yield() }
        #expect(enrollments.run == nil)
        let next = await authenticator.answer(request(.enrollCaptureNextSample, [.int(1): .bytes([2])], token: token))
        #expect(next.status == .invalidParameter, "\(next)")
        #expect(try await !leftIndexSaved())
    }

    @Test func theDevicesEndCancelsTheEnrollment() async throws {
        let (authenticator, enrollments, token) = try await setUp(slowFinger, clock: ManualClock())
        #expect(await authenticator.answer(request(.enrollBegin, [:], token: token)).status == .ok)
        let run = try #require(enrollments.run)
        // What fpbridged does when the seat changes hands.
        enrollments.cancel()
        while !run.isOver { await Task.yield() }
        #expect(try await !leftIndexSaved())
    }

    @Test func aPINTokenFromBeforeAPasscodeChangeChangesNoFinger() async throws {
        let (authenticator, _, token) = try await setUp(String(repeating: "scan alice-2\n", count: 5), clock: ManualClock())
        try await PasscodeManager(context: try await harness.context("")).change(to: Passcode("1357"), prompt: ListedPasscodes([Passcode("2468")]))
        let remove = await authenticator.answer(request(.removeEnrollment, [.int(1): .bytes([7])], token: token))
        #expect(remove.status == .operationDenied, "\(remove)")
        let rename = await authenticator.answer(request(.setFriendlyName, [.int(1): .bytes([7]), .int(2): .text("x")], token: token))
        #expect(rename.status == .operationDenied, "\(rename)")
        // Every scan taken, and the save refused: the passcode the PIN matched is no longer hers.
        var answer = await authenticator.answer(request(.enrollBegin, [:], token: token))
        while answer.status == .ok, answer.body?[.int(6)]?.intValue ?? 0 > 0 {
            answer = await authenticator.answer(request(.enrollCaptureNextSample, [.int(1): .bytes([2])], token: token))
        }
        #expect(answer.status == .operationDenied, "\(answer)")
        #expect(try await !leftIndexSaved())
        let prints = try await harness.context("").environment.prints.prints(user: "alice", reader: nil)
        #expect(prints.map(\.finger) == [.rightIndex] && prints[0].name == nil)
    }
}
