/// Follows one device's heat as libfprint's thermal model steps it: scanning from the start of
/// each enroll, verify, identify or capture to its end, resting otherwise. libfprint keeps the
/// number to itself and says only cold, warm or hot; this estimate is put back in line with
/// what it says whenever the two disagree on "hot", the state that decides whether it scans.
struct HeatFollower {
    private var heat = ReaderHeat()
    private var since = SuspendingClock.now
    private var scanning = false

    /// The heat now.
    func current(at now: SuspendingClock.Instant = .now) -> ReaderHeat {
        heat.after(active: scanning, seconds: Self.seconds(from: since, to: now))
    }

    /// A scan starts (`true`) or ends.
    mutating func set(scanning: Bool, at now: SuspendingClock.Instant = .now) {
        heat = current(at: now)
        since = now
        self.scanning = scanning
    }

    /// Brings the estimate in line with the temperature libfprint reports.
    mutating func agree(with reported: ReaderTemperature, at now: SuspendingClock.Instant = .now) {
        let estimate = current(at: now)
        switch (reported, estimate.temperature) {
        case (.hot, .hot), (.warm, .warm), (.cold, .cold):
            return
        case (.hot, _):
            heat = ReaderHeat(ratio: max(estimate.ratio, ReaderHeat.hotThreshold), hot: true)
        case (.warm, .hot):
            heat = ReaderHeat(ratio: min(estimate.ratio, ReaderHeat.hotThreshold.nextDown))
        case (.warm, _):
            heat = ReaderHeat(ratio: ReaderHeat.coldThreshold)
        case (.cold, _):
            heat = ReaderHeat(ratio: min(estimate.ratio, ReaderHeat.coldThreshold.nextDown))
        }
        since = now
    }

    private static func seconds(from start: SuspendingClock.Instant, to end: SuspendingClock.Instant) -> Double {
        start.duration(to: end).inSeconds
    }
}
