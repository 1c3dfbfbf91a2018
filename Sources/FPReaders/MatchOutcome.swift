/// A choice the user made in a prompt instead of presenting a finger.
public enum UserChoice: String, Sendable, Hashable {
    /// The user pressed the cancel button.
    case cancel
    /// The user pressed the fallback button (e.g. "Enter passcode").
    case fallback
}

/// How one verify or identify scan ended.
public enum MatchOutcome: Sendable, Hashable {
    /// The finger matched; for identify, the index into the gallery (0 for verify).
    case match(galleryIndex: Int)
    /// A finger was read and matched nothing.
    case noMatch
    /// The reader could not read the finger properly and asks for another try.
    case retry(RetryReason)
    /// The user answered the prompt instead of scanning (fake reader scripts only;
    /// real front ends deliver these choices themselves).
    case userChoice(UserChoice)
}

/// What happens during an enrollment, in order.
public enum EnrollEvent: Sendable, Hashable {
    /// One more scan was accepted.
    case stageCompleted(completed: Int, total: Int)
    /// A scan was rejected; the enrollment continues.
    case retry(RetryReason)
    /// The enrollment is complete; the print is ready to store.
    case enrolled(EnrolledPrint)
}

/// A print returned by enrollment.
public struct EnrolledPrint: Sendable, Hashable {
    /// The serialised print.
    public let data: PrintData
    /// True when the template lives on the sensor (match-on-chip readers):
    /// deleting the print must then delete it on the sensor too.
    public let storedOnDevice: Bool

    public init(data: PrintData, storedOnDevice: Bool) {
        self.data = data
        self.storedOnDevice = storedOnDevice
    }
}

import FPCore
