import FPAuthentication
import FoundationEssentials

/// What is said of an enrolled print outside the store: never its template.
package struct PrintSummary: Codable, Sendable, Hashable {
    package var user: String
    package var finger: Finger
    package var reader: ReaderIdentity
    package var enrolledAt: Date
    package var storedOnDevice: Bool

    package init(_ record: PrintRecord) {
        user = record.user
        finger = record.finger
        reader = record.reader
        enrolledAt = record.enrolledAt
        storedOnDevice = record.storedOnDevice
    }
}
