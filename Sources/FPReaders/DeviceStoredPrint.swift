import FPCore
import Foundation

/// A print kept in a reader's own storage, as the reader lists it.
public struct DeviceStoredPrint: Sendable, Hashable {
    public let data: PrintData
    public let finger: Finger?
    public let username: String?
    public let description: String?

    public init(data: PrintData, finger: Finger?, username: String?, description: String?) {
        self.data = data
        self.finger = finger
        self.username = username
        self.description = description
    }
}
