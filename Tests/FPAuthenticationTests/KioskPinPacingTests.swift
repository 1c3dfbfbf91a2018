@testable import FPAuthentication
import Foundation
import Testing

/// Issue 40 §2: a kiosk's PIN pad slows rather than stops. Before, eleven wrong PINs under any
/// names made the pad refuse everyone, right PINs included, for about a minute and then take one
/// a minute; one person shut both ways (five wrong fingers lock identification) in seconds.
/// Now, past the burst of ten, it takes one PIN every five seconds, whoever it is for. Time is
/// the boot's clock the rules are given, moved by the test.
@Suite struct KioskPinPacingTests {
    func rules(at uptime: TimeInterval) -> LockoutRules {
        LockoutRules(configuration: AuthConfiguration(), clock: LockoutClock(wall: Date(), uptime: uptime, bootID: "test-boot"))
    }

    @Test func pastTheBurstOnePINEveryFiveSecondsAndNeverALongerWait() throws {
        var budget = KioskGuessBudget()
        let start: TimeInterval = 1_000
        // The burst: ten at once.
        for index in 0..<LockoutRules.kioskGuesses {
            try rules(at: start + Double(index) * 0.25).spendKioskGuess(&budget)
        }
        // The eleventh, at once: refused, with the seconds left of the pace. (Quarter seconds:
        // exact in binary, so that the seconds told are exact too.)
        var now = start + 2.5
        #expect(throws: AuthError.self) { try rules(at: now).spendKioskGuess(&budget) }
        do { try rules(at: now).spendKioskGuess(&budget) } catch {
            #expect(error.code == .pinPadResting && error.retryAfter == 5, "\(error)")
        }
        // A refused try spends nothing and moves no deadline: five seconds after the last guess taken, it is taken.
        now = start + 2.25 + 5
        try rules(at: now).spendKioskGuess(&budget)

        // An hour of one wrong PIN every five seconds: each is taken on time, and the longest
        // refusal in between is five seconds, however long the guessing went on.
        var longest: TimeInterval = 0
        for _ in 0..<720 {
            do { try rules(at: now + 1).spendKioskGuess(&budget) } catch { longest = max(longest, error.retryAfter ?? .infinity) }
            now += 5
            try rules(at: now).spendKioskGuess(&budget)
        }
        #expect(longest == 4, "one second after a guess, four are left of the pace")
    }

    @Test func theWholeBurstComesBackAfterAnHourOfQuietAndRightPINsGiveTheirGuessBack() throws {
        var budget = KioskGuessBudget()
        var now: TimeInterval = 5_000
        for _ in 0..<200 {
            try rules(at: now).spendKioskGuess(&budget)
            now += 5
        }
        // The spent guesses are remembered for an hour at most: then ten go at once again.
        now += LockoutRules.kioskGuessMemory * LockoutRules.kioskGuessRefillSeconds
        for index in 0..<LockoutRules.kioskGuesses {
            try rules(at: now + Double(index) * 0.25).spendKioskGuess(&budget)
        }
        #expect(throws: AuthError.self) { try rules(at: now + 2.5).spendKioskGuess(&budget) }

        // People signing in use nothing up: a right PIN gives its guess back, so a guess is at once free again.
        rules(at: now + 2.75).returnKioskGuess(&budget)
        try rules(at: now + 3).spendKioskGuess(&budget)
    }
}
