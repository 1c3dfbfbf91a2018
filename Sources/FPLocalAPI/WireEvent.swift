import FPVocabulary

/// An ``AuthEvent`` on the wire: `{"kind": "noMatch", "attemptsLeftInEvaluation": 2, ...}`.
package struct WireEvent: Codable, Sendable, Hashable {
    package var kind: String
    package var scanType: ScanType?
    package var retry: RetryReason?
    package var attemptsLeftInEvaluation: Int?
    package var attemptsLeftBeforeLockout: Int?
    package var title: String?
    package var text: String?
    package var user: String?
    package var finger: Finger?
    package var retryAfter: Double?
    package var scanSecondsLeft: Double?
    package var compared: Int?
    package var galleryCount: Int?
    package var matchingSeconds: Double?
    package var confidence: MatchConfidence?

    package init(_ event: AuthEvent) {
        switch event {
        case .presentFinger(let scanType): self.init(kind: "presentFinger", scanType: scanType)
        case .fingerDetected: self.init(kind: "fingerDetected")
        case .retryHint(let reason): self.init(kind: "retryHint", retry: reason)
        case .noMatch(let left, let beforeLockout):
            self.init(kind: "noMatch", attemptsLeftInEvaluation: left, attemptsLeftBeforeLockout: beforeLockout)
        case .fallbackOffered(let title): self.init(kind: "fallbackOffered", title: title)
        case .lockedOut(let retryAfter): self.init(kind: "lockedOut", retryAfter: retryAfter)
        case .passcodeRequested(let left): self.init(kind: "passcodeRequested", attemptsLeftBeforeLockout: left)
        case .passcodeRejected(let left): self.init(kind: "passcodeRejected", attemptsLeftBeforeLockout: left)
        case .printSkipped(let text): self.init(kind: "printSkipped", text: text)
        case .readerWarming(let seconds): self.init(kind: "readerWarming", scanSecondsLeft: seconds)
        case .matched(let user, let finger): self.init(kind: "matched", user: user, finger: finger)
        case .identificationScored(let confidence):
            self.init(kind: "identificationScored")
            self.confidence = confidence
        case .anotherTouch: self.init(kind: "anotherTouch")
        case .printsCompared(let compared, let count, let seconds):
            self.init(kind: "printsCompared")
            self.compared = compared
            galleryCount = count
            matchingSeconds = seconds
        }
    }

    private init(kind: String, scanType: ScanType? = nil, retry: RetryReason? = nil, attemptsLeftInEvaluation: Int? = nil,
                 attemptsLeftBeforeLockout: Int? = nil, title: String? = nil, text: String? = nil,
                 user: String? = nil, finger: Finger? = nil, retryAfter: Double? = nil, scanSecondsLeft: Double? = nil) {
        self.kind = kind
        self.scanType = scanType
        self.retry = retry
        self.attemptsLeftInEvaluation = attemptsLeftInEvaluation
        self.attemptsLeftBeforeLockout = attemptsLeftBeforeLockout
        self.title = title
        self.text = text
        self.user = user
        self.finger = finger
        self.retryAfter = retryAfter
        self.scanSecondsLeft = scanSecondsLeft
    }

    /// The engine's event again; nil for a kind this side does not know (a newer service), which is skipped.
    package var event: AuthEvent? {
        switch kind {
        case "presentFinger": scanType.map(AuthEvent.presentFinger)
        case "fingerDetected": .fingerDetected
        case "retryHint": retry.map(AuthEvent.retryHint)
        case "noMatch":
            .noMatch(attemptsLeftInEvaluation: attemptsLeftInEvaluation ?? 0,
                     attemptsLeftBeforeLockout: attemptsLeftBeforeLockout ?? 0)
        case "fallbackOffered": .fallbackOffered(title: title ?? "")
        case "lockedOut": .lockedOut(retryAfter: retryAfter)
        case "passcodeRequested": .passcodeRequested(attemptsLeftBeforeLockout: attemptsLeftBeforeLockout ?? 0)
        case "passcodeRejected": .passcodeRejected(attemptsLeftBeforeLockout: attemptsLeftBeforeLockout ?? 0)
        case "printSkipped": .printSkipped(text ?? "")
        case "readerWarming": scanSecondsLeft.map(AuthEvent.readerWarming)
        case "matched": user.map { .matched(user: $0, finger: finger) }
        case "identificationScored": confidence.map(AuthEvent.identificationScored)
        case "anotherTouch": .anotherTouch
        case "printsCompared":
            compared.flatMap { compared in galleryCount.map { .printsCompared(compared: compared, of: $0, matchingSeconds: matchingSeconds) } }
        default: nil
        }
    }
}
