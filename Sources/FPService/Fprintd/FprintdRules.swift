/// Who may call what on the fprintd face and in which claim state: the one table, with fprintd's
/// facts (the polkit actions each method needs, any one of them sufficing; which methods need
/// the caller's own claim). Acting for another user by name needs `setusername` besides.
enum FprintdRules {
    /// polkit's actions, as fprintd's policy declares them.
    enum Action: String, Sendable, CaseIterable {
        case verify = "net.reactivated.fprint.device.verify"
        case enroll = "net.reactivated.fprint.device.enroll"
        case setUsername = "net.reactivated.fprint.device.setusername"
    }

    /// The claim a method needs.
    enum ClaimNeed: Sendable {
        /// Nobody may hold the device (Claim).
        case free
        /// The caller must hold it, with no other call of theirs in the middle of changing it.
        case held
        /// Claimed or not (ListEnrolledFingers).
        case any
        /// The caller's claim if there is one, else the device must be free (DeleteEnrolledFingers).
        case heldOrFree
    }

    struct Rule: Sendable {
        /// Any one of these authorizes the call; none means the claim alone does.
        var actions: [Action]
        var claim: ClaimNeed
        /// The first argument names the user acted for (empty: the caller).
        var namesUser: Bool
    }

    /// What each Device method needs.
    static func rule(_ method: FprintdMethod) -> Rule {
        switch method {
        case .claim: Rule(actions: [.verify, .enroll], claim: .free, namesUser: true)
        case .release: Rule(actions: [], claim: .held, namesUser: false)
        case .listEnrolledFingers: Rule(actions: [.verify], claim: .any, namesUser: true)
        case .deleteEnrolledFingers: Rule(actions: [.enroll], claim: .heldOrFree, namesUser: true)
        case .deleteEnrolledFingers2: Rule(actions: [.enroll], claim: .held, namesUser: false)
        case .deleteEnrolledFinger: Rule(actions: [.enroll], claim: .held, namesUser: false)
        case .verifyStart: Rule(actions: [.verify], claim: .held, namesUser: false)
        case .verifyStop: Rule(actions: [], claim: .held, namesUser: false)
        case .enrollStart: Rule(actions: [.enroll], claim: .held, namesUser: false)
        case .enrollStop: Rule(actions: [], claim: .held, namesUser: false)
        }
    }
}
