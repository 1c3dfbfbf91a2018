import FPLocalAPI
import FPVocabulary

/// When to scan and when to rest, so that an image reader is never stopped as too hot on an
/// idle kiosk and is armed as much of the time as libfprint's thermal model allows.
///
/// The model heats towards 1 while scanning (180 s time constant) and cools towards 0 while
/// resting (540 s); the cut-off is at 0.73. Near the cut-off heating is slowest and cooling
/// fastest, so short bursts kept just under it give the most scanning per hour (about 45 %).
/// Each scan is armed only for the seconds the reader has left minus a margin, so that a
/// finger that lands at the last moment is read before the cut-off; when less is left the
/// reader rests, long enough to buy one burst.
package struct ThermalPlan: Sendable, Equatable {
    /// Seconds of scanning kept in hand at the end of every scan (a finger arriving as the
    /// scan times out still has its capture and matching).
    package var margin: Double = 15
    /// Seconds of scanning one rest buys: shorter bursts stay nearer the cut-off (more
    /// availability), longer ones re-arm less often.
    package var burst: Double = 30
    /// Shorter scans are not worth arming: the reader rests instead.
    package var minimumScan: Double = 3
    /// The timeout of a reader that never overheats (match-on-chip): re-armed hourly all the same.
    package var unlimitedScan: Double = 3600
    /// Seconds kept in hand when someone tapped the screen of a resting kiosk: they are about to
    /// touch the reader, so the margin kept for a finger arriving unannounced is spent on them.
    package var wokenMargin: Double = 3
    /// The longest scan a tap arms: the person at the screen touches within it, or taps again.
    package var wokenScan: Double = 20

    package init() {}

    /// What to do next.
    package enum Step: Sendable, Equatable {
        /// Arm `identify` with this timeout.
        case scan(timeout: Double)
        /// No scan for this long (or until a wake). `wakeable`: a tap of the screen now would
        /// arm a scan (``step(for:woken:)``), so the page says so.
        case rest(seconds: Double, wakeable: Bool)
        /// No reader: poll until one is plugged in.
        case absent
    }

    /// The next step for the reader as reported; `woken` when someone just tapped the screen.
    package func step(for report: ReaderReport.Reader, woken: Bool = false) -> Step {
        guard report.present else { return .absent }
        guard let left = report.scanSecondsLeft else { return .scan(timeout: unlimitedScan) }
        let heat = report.readerHeat
        let budget = heat.hot ? 0 : left - margin
        if budget >= minimumScan { return .scan(timeout: budget) }
        let tapBudget = heat.hot ? 0 : left - wokenMargin
        if woken, tapBudget >= minimumScan { return .scan(timeout: min(tapBudget, wokenScan)) }
        let rest = max(heat.idleSeconds(untilScanSecondsLeft: margin + burst), report.usableInSeconds)
        // Never a rest of nothing: the estimate may round to 0 just under the wanted budget.
        return .rest(seconds: max(1, rest), wakeable: tapBudget >= minimumScan)
    }
}
