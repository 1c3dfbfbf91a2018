/// What happens during an enrollment, in order.
public enum EnrollEvent: Sendable, Hashable {
    /// One more scan was accepted.
    case stageCompleted(completed: Int, total: Int)
    /// A scan was rejected; the enrollment continues.
    case retry(RetryReason)
    /// The enrollment is complete; the print is ready to store.
    case enrolled(EnrolledPrint)
}
