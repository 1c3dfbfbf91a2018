/// What a front end should show during an evaluation, in order.
public enum AuthEvent: Sendable, Hashable {
    /// Ask for the finger; the text follows the reader's scan type.
    case presentFinger(ScanType)
    /// A finger is on the reader and matching has begun: stop asking for it ("Reading…").
    case fingerDetected
    /// The reader nears libfprint's thermal cut-off: this scan is stopped as too hot in about
    /// `scanSecondsLeft` unless it ends first (a kiosk rests the reader instead).
    case readerWarming(scanSecondsLeft: Double)
    /// The reader wants the finger again; not a failure.
    case retryHint(RetryReason)
    /// A finger was read and did not match.
    case noMatch(attemptsLeftInEvaluation: Int, attemptsLeftBeforeLockout: Int)
    /// The fallback button is now shown, with this title.
    case fallbackOffered(title: String)
    /// Biometry just became locked out; `retryAfter`: seconds until it ends by itself (a timed
    /// lockout), nil when only the passcode ends it.
    case lockedOut(retryAfter: Double?)
    /// The passcode is being asked for.
    case passcodeRequested(attemptsLeftBeforeLockout: Int)
    /// A passcode was wrong.
    case passcodeRejected(attemptsLeftBeforeLockout: Int)
    /// A damaged print file was left out of an identification; the text names its path.
    case printSkipped(String)
    /// An identification compared the scan with `compared` of the `of` prints enrolled (it
    /// stops at the first that matches); `matchingSeconds`: how long comparing took, when
    /// fpbridge compared (nil when libfprint did).
    case printsCompared(compared: Int, of: Int, matchingSeconds: Double?)
    /// An identification among many people scored this touch (fpbridge's own 1:N rule): how
    /// sure it was, whatever it decided. Precedes `matched`, `noMatch` or `anotherTouch`.
    case identificationScored(MatchConfidence)
    /// Too close to tell who it was: the same finger once more decides (not a failure).
    case anotherTouch
    /// The finger matched.
    case matched(user: String, finger: Finger?)
}
