import FPVocabulary

/// Badge and finger (issue 50): whether the kiosk asks people to name themselves before a
/// touch, and the claim the PIN pad's "Use finger" hands the identify loop.
///
/// Past fpbridged's `identificationOpenGalleryLimit` prints an identification among everyone
/// is refused (`claim-needed`): at that size the 1:N threshold costs the right person too many
/// touches. The loop learns it from that refusal (or is told with `--badge-first`), the page
/// shows "Use finger", and the next touch is compared with the named person's prints only.
/// A failed touch counts on the reader's identification count, never on that person's: a
/// bystander who knows a badge number cannot lock its owner's finger.
package final class BadgeDesk: Sendable {
    /// Who the person at the pad named.
    package enum Claim: Sendable, Equatable {
        /// A user (the badge number's, or the user id typed without `--badges`).
        case user(String)
        /// A badge number `--badges` does not hold: answered as a user with no print is.
        case unknownBadge
    }

    /// What became of a claim offered.
    package enum Offer: Sendable, Equatable {
        /// The loop arms the reader for it at its next turn.
        case taken
        /// The kiosk identifies among everyone now: a touch is enough.
        case notNeeded
        /// A claim waits already (somebody pressed "Use finger" a moment ago).
        case busy
    }

    private struct State {
        /// fpbridged refused an identification among everyone (`claim-needed`), and has not
        /// run one since.
        var learned = false
        var pending: (claim: Claim, at: Double)?
        /// When the loop last tried an identification among everyone while ``learned``.
        var lastOpenTry: Double?
    }

    /// `--badge-first`: every touch is named first, whatever the gallery's size.
    package let always: Bool
    /// How long a claim waits for the loop's next scan before it is dropped (the reader was
    /// resting, say): the person has walked away by then.
    package let claimLifetime: Double
    /// While ``learned``, how often the loop asks fpbridged again whether an identification
    /// among everyone is allowed (prints may have been removed meanwhile).
    package let openRetrySeconds: Double
    private let state = Locked(State())

    package init(always: Bool = false, claimLifetime: Double = 10, openRetrySeconds: Double = 60) {
        self.always = always
        self.claimLifetime = claimLifetime
        self.openRetrySeconds = openRetrySeconds
    }

    /// Whether a touch needs a name first now.
    package var needed: Bool { always || state.withLock { $0.learned } }

    /// fpbridged's answer to an identification among everyone: refused as `claim-needed`
    /// (true), or run (false).
    func learned(_ needed: Bool, at now: Double) {
        state.withLock { state in
            state.learned = needed
            if !needed { state.lastOpenTry = nil } else if state.lastOpenTry == nil { state.lastOpenTry = now }
        }
    }

    /// Whether the loop should try an identification among everyone now, while names are
    /// needed because fpbridged said so; marks the try. Never with `--badge-first`.
    func openTryDue(at now: Double) -> Bool {
        guard !always else { return false }
        return state.withLock { state in
            guard state.learned else { return true }
            if let last = state.lastOpenTry, now - last < openRetrySeconds { return false }
            state.lastOpenTry = now
            return true
        }
    }

    /// Hands `claim` to the loop.
    package func offer(_ claim: Claim, at now: Double) -> Offer {
        guard needed else { return .notNeeded }
        return state.withLock { state in
            if let pending = state.pending, now - pending.at < claimLifetime { return .busy }
            state.pending = (claim, now)
            return .taken
        }
    }

    /// The claim waiting for this scan, if it is still fresh.
    func take(at now: Double) -> Claim? {
        state.withLock { state in
            defer { state.pending = nil }
            guard let pending = state.pending, now - pending.at < claimLifetime else { return nil }
            return pending.claim
        }
    }
}
