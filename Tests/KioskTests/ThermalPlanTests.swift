import FPKiosk
import FPLocalAPI
import FPVocabulary
import Testing

/// The plan of scans and rests, from the reader's heat as fpbridged reports it.
@Suite struct ThermalPlanTests {
    private func report(_ heat: ReaderHeat) -> ReaderReport.Reader {
        ReaderReport.Reader(identity: "virtual_image/0", name: nil, present: true, temperature: heat.temperature, heat: heat)
    }

    @Test func aColdReaderIsArmedForAllButTheMargin() {
        let cold = report(ReaderHeat())
        let plan = ThermalPlan()
        #expect(plan.step(for: cold) == .scan(timeout: cold.scanSecondsLeft! - plan.margin))
    }

    @Test func aReaderNearTheCutOffRestsUntilABurstIsAvailableAgain() throws {
        let plan = ThermalPlan()
        // Ten seconds of scanning left: less than the margin.
        let warm = ReaderHeat(ratio: 1 - (1 - ReaderHeat.hotThreshold) * 1.0571)
        guard case .rest(let seconds, let wakeable) = plan.step(for: report(warm)) else {
            Issue.record("a reader with \(warm.scanSecondsLeft) s left was armed")
            return
        }
        let rested = warm.after(active: false, seconds: seconds)
        #expect(abs(rested.scanSecondsLeft - (plan.margin + plan.burst)) < 0.5, "after the rest: \(rested.scanSecondsLeft) s")
        // Someone at the screen: the margin is theirs, and a tap arms a scan.
        #expect(wakeable)
        let left = try #require(report(warm).scanSecondsLeft)
        #expect(plan.step(for: report(warm), woken: true) == .scan(timeout: min(left - plan.wokenMargin, plan.wokenScan)))
    }

    @Test func aReaderAlmostAtTheCutOffRestsEvenAfterATap() {
        let plan = ThermalPlan()
        // Five seconds left: a scan armed now would have less than the minimum after the margin.
        let warmer = ReaderHeat(ratio: 1 - (1 - ReaderHeat.hotThreshold) * 1.028)
        #expect(warmer.scanSecondsLeft < plan.wokenMargin + plan.minimumScan, "\(warmer.scanSecondsLeft) s left")
        guard case .rest(_, let wakeable) = plan.step(for: report(warmer), woken: true) else {
            Issue.record("a reader with \(warmer.scanSecondsLeft) s left was armed by a tap")
            return
        }
        #expect(!wakeable, "the page would ask for a tap that arms nothing")
    }

    @Test func aHotReaderRestsAtLeastUntilLibfprintTakesItAgain() {
        let hot = ReaderHeat(ratio: ReaderHeat.hotThreshold, hot: true)
        guard case .rest(let seconds, let wakeable) = ThermalPlan().step(for: report(hot), woken: true) else {
            Issue.record("a hot reader was armed")
            return
        }
        #expect(seconds >= hot.usableInSeconds)
        #expect(!wakeable)
    }

    @Test func aReaderThatNeverOverheatsIsArmedLongAndNoReaderIsPolled() {
        let onChip = ReaderReport.Reader(identity: "goodixmoc/0", name: nil, present: true, temperature: .cold, heat: nil)
        #expect(ThermalPlan().step(for: onChip) == .scan(timeout: ThermalPlan().unlimitedScan))
        #expect(ThermalPlan().step(for: .absent) == .absent)
    }
}

/// An idle kiosk on an image reader for a simulated hour: the loop's plan against libfprint's
/// thermal model, in virtual time.
@Suite struct IdleKioskTests {
    @Test func anIdleKioskNeverOverheatsTheReaderAndIsReadyAsMuchAsTheModelAllows() async {
        let clock = VirtualClock()
        let reader = IdleImageReader(clock: clock)
        let board = KioskBoard(clock: clock)
        let loop = IdentifyLoop(backend: reader, board: board, clock: clock, wake: WakeSignal())
        // The rests whose page asks for a tap (a tap there arms the reader at once).
        var tappable = 0.0
        while clock.now < 3600 {
            let start = clock.now
            await loop.turn()
            if board.current.state == .resting && board.current.message == "restingTap" { tappable += clock.now - start }
        }
        let availability = reader.scanned / clock.now
        print("idle kiosk, one simulated hour: armed \(Int(availability * 100)) % of the time, armed or armed by a tap "
              + "\(Int((reader.scanned + tappable) / clock.now * 100)) %, \(reader.cutOffs) thermal cut-offs")
        #expect(reader.cutOffs == 0)
        // Every rest of an idle kiosk starts with more than a tap's scan left (the margin is 15 s).
        #expect(reader.scanned + tappable > clock.now * 0.99)
        // The model's ceiling, scanning just under the cut-off, is about 47 %; always armed
        // (cut off, then locked out for the cool-down) gave 35 %.
        #expect(availability > 0.40)
    }
}
