/// Who may do what through the socket: the one table. Decided from the caller's uid and groups
/// (`SO_PEERCRED` and the group database), never from the request (docs/service.md, "Who may do what").
/// fprintd's D-Bus face has its own table, with polkit's answers: ``FprintdRules``.
package enum ServiceRights {
    /// What a request does, for the table.
    package enum Action: Sendable, Equatable {
        /// Reading or changing a user's state: status, prints, passcode, enrollment, keys.
        case manage
        /// A verification or evaluation of a user, or asking whether one could run.
        case evaluate
        /// The user's passcode checked through a prompt (`unlock`).
        case checkPasscode
        /// A named user's passcode typed whole at a PIN pad (`passcode-check`), answered for a
        /// name with no passcode as for a wrong one, and spending a kiosk's budget.
        case pinPad
        /// A named user's PIN at the PIN pad and, when it is right, their login key signs a
        /// server's kiosk PIN challenge (`passcode-check` with `proof`): a use of another user's key.
        case pinPadProof
        /// Who is at the reader: it tells who is enrolled.
        case identify
        /// Who is at the reader, and their login key signs a server's kiosk challenge in the
        /// same touch: the only use of a key that is not the caller's own.
        case identifyAndProve
        /// Damaged state repaired, which may remove a user's passcode and prints.
        case repair
        /// A PAM stack proved a user's login password, which lifts their lockout.
        case reportPassword
        /// iOS's remote lock: the user's password before their next finger (`fpbridge lock`).
        case lockBiometry
        /// A button of a running operation started by `owner`.
        case press(owner: UInt32)
        /// An enrollment at the kiosk (`atKiosk`): it ends the identification armed on the
        /// reader and holds off the next until it ends, for everyone at that kiosk.
        case enrollAtKiosk
    }

    /// Why `caller` may not do `action` for `user`; nil when it may.
    ///
    /// | caller | may |
    /// |---|---|
    /// | any user | manage, evaluate and check the passcode of their own user; their own operations' buttons |
    /// | a member of the kiosk group | besides: identify, identify-and-prove (the identified user's login key signs a kiosk challenge), and check any named user's PIN at the PIN pad, with a proof (that user's login key signs a kiosk PIN challenge when the PIN is right); nothing else for another user |
    /// | a member of the admin group | everything for any user, repair, and enroll at a kiosk (which pauses its identification) |
    /// | root | everything, and report a proved password (`pam_exec` runs as root) |
    ///
    /// Locking a user's fingerprint until their password (`lock`) is root's and the user's own:
    /// not the admin group's, whose members would otherwise make any colleague type a password.
    package static func refusal(_ action: Action, by caller: Caller, for user: String,
                                service: ServiceConfiguration) -> ServiceRefusal? {
        let root = caller.credentials.uid == 0
        let own = user == caller.user
        switch action {
        case .reportPassword:
            return root ? nil : .forbidden("\(caller.user) may not report a proved password: only root may (the PAM stack runs as root: pam_fpbridge.so, or pam_exec)")
        case .lockBiometry:
            return root || own ? nil
                : .forbidden("\(caller.user) may not lock the fingerprint of \(user): only root or the user themselves may")
        case .enrollAtKiosk:
            return caller.isAdmin ? nil
                : .forbidden("\(caller.user) may not enroll at the kiosk: it pauses the kiosk's identification for everyone; "
                             + "it needs root or the admin group '\(service.adminGroup)'")
        case .repair:
            return caller.isAdmin ? nil
                : .forbidden("\(caller.user) may not repair state: it needs root or the admin group '\(service.adminGroup)'")
        case .press(let owner):
            return owner == caller.credentials.uid || root ? nil : .forbidden("\(caller.user) did not start this operation")
        case .identify, .identifyAndProve:
            guard caller.isAdmin || caller.isKiosk else {
                let what = action == .identify ? "identify" : "identify-and-prove (a kiosk login with whoever touches the reader)"
                return .forbidden("\(caller.user) may not \(what): it tells who is enrolled; "
                                  + "it needs the admin group '\(service.adminGroup)' or the kiosk group '\(service.kioskGroup)'")
            }
            return nil
        case .pinPadProof:
            guard caller.isAdmin || caller.isKiosk else {
                return .forbidden("\(caller.user) may not ask for a kiosk PIN login's proof: it signs with \(user)'s login key; "
                                  + "it needs the kiosk group '\(service.kioskGroup)' or the admin group '\(service.adminGroup)'")
            }
            return nil
        case .pinPad where caller.isKiosk:
            return nil
        case .manage, .evaluate, .checkPasscode, .pinPad:
            guard own || caller.isAdmin else {
                let kiosk = caller.isKiosk
                    ? " (the kiosk group '\(service.kioskGroup)' may identify and check a PIN at the PIN pad, nothing else for another user)" : ""
                return .forbidden("\(caller.user) may act only for itself, not for \(user); "
                                  + "acting for another user needs the admin group '\(service.adminGroup)'" + kiosk)
            }
            return nil
        }
    }
}
