import FPAuthentication
import FPReaders
import Foundation

extension FprintdFace {
    /// VerifyStart: one scan through the engine, as an evaluation of the claiming user with one
    /// attempt, so that each `verify-no-match` is a failure counted towards the lockout exactly as
    /// through the CLI. A user locked out is refused before any scan (see ``lockoutRefusal(_:_:)``).
    /// The call is answered once the reader is this call's: then `VerifyFingerSelected`, then
    /// `VerifyStatus` until one with `done`.
    func verifyStart(_ device: FprintdDevice, _ call: BusCall) async throws {
        let (holder, target, configuration) = try claimed(device, call)
        guard let wanted = FprintdFinger.selection(call.string(0) ?? "") else {
            throw BusError(.invalidFingername, "Invalid finger name")
        }
        let fingers = try enrolled(device, user: holder.user)
        guard !fingers.isEmpty else { throw BusError(.noEnrolledPrints, "No fingerprints enrolled") }
        if let wanted, !wanted.isSubset(of: Set(fingers)) {
            throw BusError(.noEnrolledPrints, "No print of \(wanted.map(FprintdFinger.name).joined()) enrolled for \(holder.user)")
        }
        let probe = target.context(reader: nil, configuration: configuration, printCaches: printCaches)
        if let refusal = lockoutRefusal(probe, holder.user) { throw refusal }
        let selected = wanted.flatMap { $0.count == 1 ? $0.first.map(FprintdFinger.name) : nil } ?? "any"
        let action = Action(kind: .verify, signal: "VerifyStatus", ending: \.verify, success: "verify-match")
        try begin(action, device, call, target: target, configuration: configuration, busy: "Verification already in progress",
                  afterAnswer: { [self] in await emit(device, "VerifyFingerSelected", [.string(selected)]) }) { [self] context in
            .matched(try await EngineEvents.forwarding(of: context, to: { [self] event in await signal(event, device) }) {
                try await context.verifyFinger(reason: "Verify your fingerprint",
                                               options: BiometricOptions(fingers: wanted, maxFailedMatches: 1))
            })
        }
    }

    /// Why a verification must not start: the user is locked out, one of iOS's rules asks for the
    /// password first (named), or their counter cannot be read. `NoEnrolledPrints` is the answer `pam_fprintd` reads as "no fingerprint for this
    /// user", so the PAM stack goes straight on to the password without a scan; the message
    /// says what happened, for clients that show it.
    func lockoutRefusal(_ context: AuthenticationContext, _ user: String) -> BusError? {
        let status = context.lockoutStatus(.user(user))
        if let path = status.damagedCounter {
            return BusError(.internalError, "the failure counter of \(user) is damaged (\(path)); an administrator repairs it with fpbridge repair")
        }
        guard status.lockedOut else { return nil }
        // iOS's rules are refused the same way, with the engine's message, which names the rule
        // and says that the password ends it.
        if status.passwordRule != nil, let message = status.message {
            return BusError(.noEnrolledPrints, "Fingerprint: " + message)
        }
        return BusError(.noEnrolledPrints, "Fingerprint is locked out for \(user) after too many failed attempts; "
                        + "authenticate with your password (or fpbridge unlock) to use it again")
    }

    /// An engine event as a signal while a scan runs (the properties follow the reader's flags).
    private func signal(_ event: AuthEvent, _ device: FprintdDevice) async {
        switch event {
        case .retryHint(let reason):
            await device.fingerRelay.caughtUp()
            await emit(device, "VerifyStatus", [.string(Self.retryResult("verify", reason)), .bool(false)])
            // That scan's answer went out; the next scan's is to come.
            device.fingerRelay.begin()
        default: break
        }
    }

    /// fprintd's name for a scan to do again, for `verify` or `enroll`.
    static func retryResult(_ action: String, _ reason: RetryReason) -> String {
        switch reason {
        case .general: "\(action)-retry-scan"
        case .tooShort: "\(action)-swipe-too-short"
        case .center: "\(action)-finger-not-centered"
        case .remove: "\(action)-remove-and-retry"
        }
    }
}
