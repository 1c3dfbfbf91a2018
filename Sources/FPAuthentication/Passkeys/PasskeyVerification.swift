import FPStore
import FoundationEssentials
import Synchronization

/// A fingerprint match of one user, made by ``PasskeyVault/verifyUser(reason:prompt:)``, that
/// exactly one later passkey operation may stand on instead of a match of its own: CTAP's
/// pinUvAuthToken got with a finger, whose first use needs no second touch. Only the vault
/// makes one, and only the vault spends it: once, for the same user, on the same boot, within
/// ``lifetime`` of the match.
public final class PasskeyVerification: Sendable {
    /// How long after the match it can be spent (CTAP 2.1's userPresentTimeLimit, §6.5.2.1).
    public static let lifetime: TimeInterval = 30

    let user: String
    private let matchedAt: LockoutClock
    private let spent = Mutex(false)

    init(user: String, matchedAt: LockoutClock) {
        self.user = user
        self.matchedAt = matchedAt
    }

    /// Spends it: true once, for `user` at `now` within ``lifetime``; false ever after, or
    /// for anyone else, another boot or later.
    func spend(user: String, now: LockoutClock) -> Bool {
        guard user == self.user, now.bootID == matchedAt.bootID, now.uptime >= matchedAt.uptime,
              now.uptime - matchedAt.uptime <= Self.lifetime else { return false }
        return spent.withLock { spent in
            defer { spent = true }
            return !spent
        }
    }
}
