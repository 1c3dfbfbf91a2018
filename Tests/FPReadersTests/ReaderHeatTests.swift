@testable import FPReaders
import Foundation
import Testing

/// libfprint's thermal model as `ReaderHeat` computes it, against the figures measured on
/// libfprint 1.94 (reference/libfprint.md: a fresh virtual reader scanning without a pause
/// goes hot after 180.2 s), and `HeatFollower` keeping in step with what libfprint says.
@Suite struct ReaderHeatTests {
    @Test func aFreshReaderScansThreeMinutesBeforeItIsHot() {
        let fresh = ReaderHeat()
        #expect(fresh.temperature == .warm || fresh.temperature == .cold)
        #expect(abs(fresh.scanSecondsLeft - 180) < 0.5, "\(fresh.scanSecondsLeft)")
        let after179 = fresh.after(active: true, seconds: 179)
        #expect(!after179.hot && after179.scanSecondsLeft < 1.5)
        let after181 = fresh.after(active: true, seconds: 181)
        #expect(after181.hot && after181.temperature == .hot && after181.scanSecondsLeft == 0)
    }

    @Test func aHotReaderRestsAboutThreeAndAHalfMinutes() {
        let hot = ReaderHeat(ratio: ReaderHeat.hotThreshold, hot: true)
        // 540 s × ln(0.731 / 0.5) = 205 s; the old constant said 210.
        #expect(abs(hot.usableInSeconds - 205.1) < 0.5, "\(hot.usableInSeconds)")
        #expect(hot.after(active: false, seconds: 204).hot)
        let rested = hot.after(active: false, seconds: 206)
        #expect(!rested.hot && rested.temperature == .warm && rested.usableInSeconds == 0)
        // Once usable it has little headroom: the band between 0.5 and the cut-off.
        #expect(abs(rested.scanSecondsLeft - 111) < 2, "\(rested.scanSecondsLeft)")
    }

    @Test func restingGivesBackTheScanningAskedFor() {
        let warm = ReaderHeat().after(active: true, seconds: 170)
        #expect(warm.scanSecondsLeft < 11)
        let rest = warm.idleSeconds(untilScanSecondsLeft: 40)
        #expect(rest > 0)
        let after = warm.after(active: false, seconds: rest)
        #expect(abs(after.scanSecondsLeft - 40) < 0.1, "\(after.scanSecondsLeft)")
        #expect(warm.idleSeconds(untilScanSecondsLeft: 5) == 0)
        // A hot reader first rests until libfprint lets it scan.
        let hot = ReaderHeat(ratio: 0.8, hot: true)
        #expect(hot.idleSeconds(untilScanSecondsLeft: 1) >= hot.usableInSeconds)
        // More than a cold reader has is the rest down to cold, not forever.
        #expect(ReaderHeat(ratio: 0.7).idleSeconds(untilScanSecondsLeft: 10_000).isFinite)
    }

    @Test func aKioskThatRestsBeforeTheCutOffIsReadyAboutHalfTheTime() {
        // Scan while more than 15 s are left, rest until 45 s are: over an hour, no cut-off.
        var heat = ReaderHeat()
        var scanning = 0.0
        var elapsed = 0.0
        while elapsed < 3600 {
            let burst = heat.scanSecondsLeft - 15
            if burst > 0 {
                heat = heat.after(active: true, seconds: burst)
                scanning += burst
                elapsed += burst
            }
            #expect(!heat.hot)
            let rest = heat.idleSeconds(untilScanSecondsLeft: 45)
            heat = heat.after(active: false, seconds: rest)
            elapsed += rest
        }
        // The model allows r / (3 - 2r) at the mean heat r: 47.5 % right at the cut-off, about 41 %
        // for this band, which keeps 15 s for whoever touches the screen.
        let availability = scanning / elapsed
        #expect(availability > 0.40 && availability < 0.476, "\(availability)")
    }

    @Test func theFollowerAgreesWithWhatLibfprintSays() {
        var follower = HeatFollower()
        let start = SuspendingClock.now
        follower.set(scanning: true, at: start)
        // Ten seconds of scanning, in libfprint's words still cold or warm.
        let later = start.advanced(by: .seconds(10))
        #expect(abs(follower.current(at: later).scanSecondsLeft - 170) < 0.5)
        // libfprint says hot although the estimate does not (it started warmer): hot it is.
        follower.agree(with: .hot, at: later)
        #expect(follower.current(at: later).hot && follower.current(at: later).usableInSeconds > 200)
        follower.set(scanning: false, at: later)
        // libfprint has let it scan again sooner than estimated: no longer hot.
        let cooler = later.advanced(by: .seconds(100))
        follower.agree(with: .warm, at: cooler)
        #expect(!follower.current(at: cooler).hot)
        follower.agree(with: .cold, at: cooler)
        #expect(follower.current(at: cooler).temperature == .cold)
    }
}
