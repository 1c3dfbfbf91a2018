import FPVocabulary

/// Who and what a request is about. `user` defaults to the caller's own user; acting for another
/// needs the admin group (or the kiosk group, for evaluations). `reader` and `stateDirectory`
/// are accepted only by a service started with `--test-mode`.
package protocol TargetedRequest: Codable, Sendable {
    var user: String? { get set }
    var reader: String? { get set }
    var stateDirectory: String? { get set }
}

/// `POST /v1/evaluations`: one evaluation, streamed.
package struct EvaluationRequest: TargetedRequest {
    /// What to run: `evaluate` (a policy), `recover` (lockout → passcode → biometrics),
    /// `verify` (the user's finger, no passcode needed), `identify` (who is this), `unlock` (passcode only),
    /// `identify-and-prove` (who is this, and their login key signs ``proof``'s challenge in the same touch).
    package enum Operation: String, Codable, Sendable {
        case evaluate, recover, verify, identify, unlock
        case identifyAndProve = "identify-and-prove"
    }

    package var operation: Operation
    package var policy: String?
    package var reason: String?
    package var fingers: [Finger]?
    package var attempts: Int?
    package var fallbackTitle: String?
    package var cancelTitle: String?
    package var interactionNotAllowed: Bool?
    package var timeoutSeconds: Double?
    /// False: a busy reader answers `readerBusy` at once instead of waiting in line.
    package var wait: Bool?
    /// For `identify-and-prove` (and only for it): what the identified user's key signs.
    package var proof: ProofRequestWire?
    /// For `identify` and `identify-and-prove` (and only for them): the one person the touch
    /// is compared with, who named themselves (a badge at the kiosk). Needed past the state's
    /// `identificationOpenGalleryLimit` prints (`claim-needed`).
    package var claimedUser: String?
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(operation: Operation) { self.operation = operation }
}

/// `POST /v1/can-evaluate`.
package struct CanEvaluateRequest: TargetedRequest {
    package var policy: String
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(policy: String) { self.policy = policy }
}

/// `POST /v1/enrollments`: enrolls a finger, streamed; the current passcode is asked for on the stream.
package struct EnrollmentRequest: TargetedRequest {
    package var finger: Finger
    package var replace: Bool?
    /// An administrator enrolling at a kiosk's reader: the kiosk's identification pauses and
    /// its page shows the progress. Without it, an enrollment is refused while an
    /// identification is armed on the reader (`kiosk-holds-reader`).
    package var atKiosk: Bool?
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(finger: Finger) { self.finger = finger }
}

/// `POST /v1/prints/delete`: one finger, or all with `finger` absent and `all` true.
package struct DeletePrintsRequest: TargetedRequest {
    package var finger: Finger?
    package var all: Bool?
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(finger: Finger?) { self.finger = finger; all = finger == nil }
}

/// `POST /v1/passcode`: set, change or remove, streamed; the current passcode is asked for on the stream.
package struct PasscodeRequest: TargetedRequest {
    package enum Action: String, Codable, Sendable { case set, change, remove }

    package var action: Action
    /// The new passcode (set, change).
    package var passcode: String?
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(action: Action) { self.action = action }
}

/// `POST /v1/operations/ID/passcode`: the answer to `passcodeRequested`; no passcode (or `cancel`) cancels.
package struct PasscodeAnswer: Codable, Sendable {
    package var passcode: String?
    package var cancel: Bool?

    package init(passcode: String?) { self.passcode = passcode; cancel = passcode == nil }
}

/// `POST /v1/password-proved`: root tells the service that a user's login password was just
/// proved to a PAM stack (`fpbridge pam-password-proved` from `pam_exec`); the user's biometric
/// lockout is lifted. Anyone but root gets 403.
package struct PasswordProofRequest: TargetedRequest {
    package var user: String?
    /// The PAM service that proved it (`login`, `sudo`, `gdm-password`), for the log.
    package var pamService: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(user: String, pamService: String?) {
        self.user = user
        self.pamService = pamService
    }
}

/// The answer to ``PasswordProofRequest``.
package struct PasswordProofResult: Codable, Sendable, Hashable {
    package var user: String
    /// Whether failures or a lockout were there to lift.
    package var lifted: Bool

    package init(user: String, lifted: Bool) {
        self.user = user
        self.lifted = lifted
    }
}

/// `POST /v1/lock`: iOS's remote lock (`fpbridge lock`): the user's password or passcode is
/// needed before their next finger. Root, or the user themselves; anyone else gets 403.
package struct BiometryLockRequest: TargetedRequest {
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(user: String?, stateDirectory: String? = nil) {
        self.user = user
        self.stateDirectory = stateDirectory
    }
}

/// The answer to ``BiometryLockRequest``: whose fingerprint waits for the password now.
package struct BiometryLockResult: Codable, Sendable, Hashable {
    package var user: String

    package init(user: String) {
        self.user = user
    }
}

/// `POST /v1/passcode-check`: a kiosk's PIN pad. The user and the passcode typed together,
/// checked at once under the passcode's limits; a name with no passcode is answered as a wrong
/// PIN is. The passcode is never logged.
package struct PasscodeCheckRequest: TargetedRequest {
    package var user: String?
    package var passcode: String
    package var reader: String?
    package var stateDirectory: String?
    /// With a login server (the kiosk and admin groups only): its kiosk PIN challenge
    /// (`kiosk-pin-login`), which the user's login key for that server signs when, and only
    /// when, the PIN is right.
    package var proof: ProofRequestWire?
    /// The kiosk found no account for what was typed (a badge number its list does not hold):
    /// answered and counted as a wrong PIN for that name, and never checked against anyone's
    /// passcode, even a user's of that name.
    package var unmapped: Bool?

    package init(user: String, passcode: String, proof: ProofRequestWire? = nil, unmapped: Bool? = nil) {
        self.user = user
        self.passcode = passcode
        self.proof = proof
        self.unmapped = unmapped
    }
}

/// The answer of ``PasscodeCheckRequest`` when the PIN is right.
package struct PasscodeCheckResult: Codable, Sendable, Hashable {
    /// The user whose PIN it is.
    package var user: String
    /// With a `proof` request: the user's login key's signature over the kiosk PIN login payload.
    package var proof: WireProof?

    package init(user: String, proof: WireProof? = nil) {
        self.user = user
        self.proof = proof
    }
}
