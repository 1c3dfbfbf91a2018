import FPStore
import FoundationEssentials

/// iOS's rules for when the password or passcode is needed again before the next finger, from
/// Apple's platform security guide: after the machine starts; after 48 hours without any
/// authentication; after 156 hours without the password or passcode when no finger matched in
/// the last 4; after a remote lock. Each is on or off in `config.json` (``AuthConfiguration``),
/// and each ends only with the user's password (a PAM stack's proof) or their fpbridge passcode.
///
/// Time: every moment is kept on both clocks, and the time since it is measured as a timed
/// lockout's wait is (``LockoutClock/elapsed(since:)``): the boot's clock within the boot that
/// kept it, so that a wall clock set forward or back changes nothing; the wall clock after a
/// reboot, where a moment the clock puts in the future counts as never (it proves nothing), so
/// that a clock set back cannot lengthen the time a finger is accepted.
extension LockoutRules {
    /// Whether the rule is on: its key in `config.json`, else the host's default.
    func isOn(_ rule: PasswordRule) -> Bool {
        let fallback = configuration.passwordRulesByDefault
        return switch rule {
        case .boot: configuration.passwordAfterBoot ?? fallback
        case .idle: configuration.passwordAfterIdle ?? fallback
        case .age: configuration.passwordAfterAge ?? fallback
        case .remoteLock, .unusableRecord: true
        }
    }

    /// Whether a match is worth recording: only the timed rules read it.
    var recordsMatches: Bool { isOn(.idle) || isOn(.age) }

    /// The rule that asks for the password or passcode before `user`'s next finger, with the
    /// refusal, or nil when none does. A lock and a record that cannot be used come first:
    /// they hold whatever the settings say.
    func passwordRequirement(_ times: AuthenticationTimes, user: String) -> (rule: PasswordRule, error: AuthError)? {
        let ask = "give the password (log in, sudo) or the fpbridge passcode (fpbridge unlock) to use the fingerprint again"
        func refusal(_ rule: PasswordRule, _ why: String) -> (PasswordRule, AuthError) {
            (rule, AuthError(.biometryLockout, "biometry needs the password first for user \(user) (rule \(rule.rawValue)): \(why); \(ask)"))
        }
        if let problem = times.problem {
            return refusal(.unusableRecord, "the record of its last authentications cannot be used (\(problem))")
        }
        if times.lockedAt != nil {
            return refusal(.remoteLock, "it was locked with fpbridge lock")
        }
        if isOn(.boot), times.secret.map(clock.bootedSince) ?? true {
            return refusal(.boot, times.secret == nil ? "no password or passcode has been recorded since this machine started"
                                                      : "this machine has started since the last password or passcode")
        }
        if isOn(.idle), idleLeft(times) <= 0 {
            return refusal(.idle, times.secret == nil && times.biometry == nil ? "no authentication of it is recorded"
                                  : "nothing authenticated it for \(Self.hours(configuration.passwordAfterIdleHours))")
        }
        if isOn(.age), ageLeft(times) <= 0 {
            return refusal(.age, "the password and passcode were not used for \(Self.hours(configuration.passwordAfterAgeHours)) "
                           + "and no finger matched for \(Self.hours(configuration.passwordAfterAgeBiometryHours))")
        }
        return nil
    }

    /// Seconds until a timed rule asks for the password, when none does now; nil when no timed rule is on.
    func passwordNeededIn(_ times: AuthenticationTimes) -> TimeInterval? {
        let lefts = (isOn(.idle) ? [idleLeft(times)] : []) + (isOn(.age) ? [ageLeft(times)] : [])
        return lefts.min().map { max(0, $0) }
    }

    /// Seconds of the idle rule left: from the later of the last secret and the last match.
    private func idleLeft(_ times: AuthenticationTimes) -> TimeInterval {
        let limit = configuration.passwordAfterIdleHours * 3600
        return max(left(limit, since: times.secret), left(limit, since: times.biometry))
    }

    /// Seconds of the age rule left: it applies once both the secret and the last match are too old.
    private func ageLeft(_ times: AuthenticationTimes) -> TimeInterval {
        max(left(configuration.passwordAfterAgeHours * 3600, since: times.secret),
            left(configuration.passwordAfterAgeBiometryHours * 3600, since: times.biometry))
    }

    /// `limit` less the time since `moment`; 0 or less when it has passed, or the moment is
    /// unknown or in the future (never).
    private func left(_ limit: TimeInterval, since moment: LockoutDeadline?) -> TimeInterval {
        guard let moment, let elapsed = clock.elapsed(since: moment) else { return 0 }
        return limit - elapsed
    }

    private static func hours(_ hours: Double) -> String {
        hours == hours.rounded() ? "\(Int(hours)) hours" : "\(hours) hours"
    }

    /// The user's password or passcode was given: every rule is satisfied, a remote lock lifted,
    /// and the moment kept (when a rule may read it; none writes a file that no rule reads).
    func secretGiven(_ times: inout AuthenticationTimes) {
        if times.unusable { times = AuthenticationTimes() }
        times.lockedAt = nil
        if isOn(.boot) || isOn(.idle) || isOn(.age) { times.secret = clock.moment }
    }

    /// A finger matched: its moment is kept for the timed rules.
    func matched(_ times: inout AuthenticationTimes) {
        guard recordsMatches, !times.unusable else { return }
        times.biometry = clock.moment
    }

    /// `fpbridge lock`: the password or passcode before the next finger, whatever the clocks say.
    func remoteLock(_ times: inout AuthenticationTimes) {
        if times.unusable { times = AuthenticationTimes() }
        times.lockedAt = clock.wall
    }
}
