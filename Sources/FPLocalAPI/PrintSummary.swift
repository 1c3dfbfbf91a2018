import FPVocabulary
import FoundationEssentials

/// What is said of an enrolled print outside the store: never its template.
package struct PrintSummary: Codable, Sendable, Hashable {
    package var user: String
    package var finger: Finger
    package var reader: ReaderIdentity
    package var enrolledAt: Date
    package var storedOnDevice: Bool

    package init(user: String, finger: Finger, reader: ReaderIdentity, enrolledAt: Date, storedOnDevice: Bool) {
        self.user = user
        self.finger = finger
        self.reader = reader
        self.enrolledAt = enrolledAt
        self.storedOnDevice = storedOnDevice
    }
}
