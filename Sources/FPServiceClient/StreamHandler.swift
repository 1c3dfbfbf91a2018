import FPVocabulary
import FPLocalAPI

/// What a front end does with a streamed operation's lines.
package protocol StreamHandler: Sendable {
    /// An evaluation's event, as it happens.
    func event(_ event: AuthEvent)
    /// An enrollment's progress, as it happens.
    func enrollment(_ progress: EnrollmentProgress)
    /// The service asks for the passcode; nil cancels.
    func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode?
}
