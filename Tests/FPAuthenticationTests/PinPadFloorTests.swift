import FPAuthentication
import Foundation
import Synchronization
import Testing
import TestSupport

/// The PIN pad's answer floor (no answer sooner than 400 ms, so that a known name's file reads
/// do not tell it from a name nobody has) on a clock the test moves (issue 41 §5: it ran on
/// the real clock, and tests of it waited).
@Suite struct PinPadFloorTests {
    let harness = EngineHarness()

    @Test func noAnswerComesBeforeTheFloorOnThePadsClockForARightOrAWrongPINOrNobody() async throws {
        try await harness.setPasscode()
        for (user, pin) in [("alice", "2468"), ("alice", "1111"), ("zed", "2468")] {
            let clock = ManualClock()
            let pad = PinPad(answerFloor: .milliseconds(400), clock: clock)
            let context = try await harness.context("", user: user, reader: false)
            let answered = Mutex(false)
            let check = Task {
                defer { answered.withLock { $0 = true } }
                return try await pad.check(Passcode(pin), context: context, kiosk: 990)
            }
            // The check's own work (scrypt) is done once it sleeps out the floor on the clock.
            #expect(try await eventually(within: 20) { clock.sleepers == 1 }, "\(user)/\(pin): the floor is not on the pad's clock")
            clock.advance(by: .milliseconds(399))
            #expect(!answered.withLock { $0 }, "\(user)/\(pin): answered before the floor")
            clock.advance(by: .milliseconds(1))
            let result = await check.result
            #expect(answered.withLock { $0 })
            switch result {
            case .success(let success): #expect(user == "alice" && pin == "2468" && success.user == "alice")
            case .failure(let error): #expect(pin != "2468" || user == "zed", "\(user)/\(pin): \(error)")
                #expect((error as? AuthError)?.message == "wrong user or PIN", "\(error)")
            }
        }
    }
}
