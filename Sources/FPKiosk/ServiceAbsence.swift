import FPVocabulary

/// Whether fpbridged went away under the kiosk, and since when: its stream ended with
/// `systemCancel` (it stops, for a restart or the machine's sleep), or it stopped answering
/// after it had answered. For ``restartSeconds`` after that the page says the reader is
/// restarting (systemd brings fpbridged back within seconds); past them it says the service
/// is not answering, since a restart that long is not one. A service never seen is not answering.
package final class ServiceAbsence: Sendable {
    private struct State {
        var answered = false
        var since: Double?
    }

    private let state = Locked(State())
    /// How long "restarting" stays believable.
    package let restartSeconds: Double

    package init(restartSeconds: Double = 30) {
        self.restartSeconds = restartSeconds
    }

    /// fpbridged answered: it is there.
    package func answered() {
        state.withLock { $0 = State(answered: true, since: nil) }
    }

    /// fpbridged said it stops (`systemCancel`) at `now`.
    package func stopping(at now: Double) {
        state.withLock { $0.since = $0.since ?? now }
    }

    /// fpbridged did not answer at `now`: the page's message key, `serviceRestarting` while a
    /// restart is believable, else `serviceDown`.
    package func unreachable(at now: Double) -> String {
        state.withLock { state in
            if state.answered, state.since == nil { state.since = now }
            guard let since = state.since, now - since < restartSeconds else { return "serviceDown" }
            return "serviceRestarting"
        }
    }
}
