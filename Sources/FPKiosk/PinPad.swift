import FPVocabulary

/// The PIN pad beside the reader: a user id and a PIN, checked by fpbridged at once (it never
/// waits for the reader). The PIN passes through and is never logged or kept. With a login
/// server, a right PIN ends in a session there, as a finger does (``ServiceBackend``).
package struct PinPad: Sendable {
    package let backend: any KioskBackend
    package let board: KioskBoard
    /// `--badges`: the user id is a badge number, mapped to a user name here.
    package let badges: BadgeList?
    /// Where "Use finger" hands the identify loop who the next touch is compared with.
    package let desk: BadgeDesk
    package let clock: any KioskClock

    package init(backend: any KioskBackend, board: KioskBoard, badges: BadgeList? = nil, desk: BadgeDesk = BadgeDesk(),
                 clock: any KioskClock = SystemKioskClock()) {
        self.backend = backend
        self.board = board
        self.badges = badges
        self.desk = desk
        self.clock = clock
    }

    /// "Use finger": the typed user id (with `--badges`, the badge number) names whose prints
    /// the next touch is compared with (``BadgeDesk``). Answered at once, `touchReader` when
    /// the loop takes it; the touch's result comes on the event stream as any finger's does.
    /// An unknown badge number is taken too, and its touch answered as a person with no print
    /// here is: the pad tells neither apart.
    package func claim(user: String) -> Answer {
        let typed = user.trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty else { return Answer(ok: false, message: "badgeMissing") }
        let claim: BadgeDesk.Claim = if let badges { badges.name(for: typed).map { .user($0) } ?? .unknownBadge } else { .user(typed) }
        switch desk.offer(claim, at: clock.now) {
        case .taken: return Answer(ok: true, message: "touchReader")
        case .notNeeded: return Answer(ok: false, message: "badgeNotNeeded")
        case .busy: return Answer(ok: false, message: "badgeBusy")
        }
    }

    /// The answer to the page: accepted with the user, or why not, as a message key of the
    /// page's string table with its parameters.
    package struct Answer: Codable, Sendable, Equatable {
        package var ok: Bool
        package var user: String?
        package var message: String
        package var parameters: [String: String] = [:]
        /// Seconds until the PIN pad takes this name (or this kiosk) again.
        package var retryAfter: Double?
        /// The login server's session (`--server`), for the page that typed the PIN only.
        package var session: String?
    }

    /// Checks `pin` for `user` (with `--badges`, the user the badge number `user` names). A
    /// wrong PIN, an unknown user and an unknown badge number get the same answer, and each
    /// spends a guess of the kiosk's budget: that is fpbridged's rule (an unknown badge is
    /// sent as `unmapped`, so fpbridged counts it), and the kiosk adds nothing that would tell
    /// them apart.
    package func check(user: String, pin: String) async -> Answer {
        let typed = user.trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty, !pin.isEmpty else { return Answer(ok: false, message: "pinMissing") }
        var name = typed
        var unmapped = false
        if let badges {
            if let mapped = badges.name(for: typed) { name = mapped } else { unmapped = true }
        }
        do {
            let accepted = try await backend.checkPasscode(user: name, passcode: pin, unmapped: unmapped)
            return Answer(ok: true, user: accepted.user, message: "welcome", parameters: ["user": accepted.user], session: accepted.session)
        } catch let error as AuthError {
            switch error.code {
            case .authenticationFailed, .passcodeNotSet:
                return Answer(ok: false, message: "pinWrong")
            case .notFound, .keyInvalidated:
                // Only after a right PIN, with a login server: no usable login key for it.
                return Answer(ok: false, message: "pinNotBound")
            case .passcodeLockout, .pinPadResting:
                let seconds = error.retryAfter.map { String(Int($0.rounded(.up))) } ?? "?"
                // The user's own limit, or the kiosk's budget of wrong PINs (any name) spent.
                return Answer(ok: false, message: error.code == .pinPadResting ? "pinPadResting" : "pinLocked",
                              parameters: ["seconds": seconds], retryAfter: error.retryAfter)
            case .notPermitted:
                return Answer(ok: false, message: "pinNotPermitted", parameters: ["detail": error.message])
            case .invalidInput:
                return Answer(ok: false, message: "pinInvalid", parameters: ["detail": error.message])
            default:
                return Answer(ok: false, message: "pinTrouble", parameters: ["detail": error.message])
            }
        } catch let error as LoginServerError {
            return Answer(ok: false, message: "pinServerTrouble", parameters: ["detail": error.description])
        } catch {
            return Answer(ok: false, message: "pinTrouble", parameters: ["detail": String(describing: error)])
        }
    }
}
