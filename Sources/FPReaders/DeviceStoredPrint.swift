import FPCore
import FoundationEssentials

/// A print kept in a reader's own storage, as the reader lists it.
public struct DeviceStoredPrint: Sendable, Hashable {
    /// The print as the sensor lists it, usable for verify, identify and delete.
    public let data: PrintData
    /// The finger the sensor recorded, when it records one.
    public let finger: Finger?
    /// The user name the sensor recorded, when it records one.
    public let username: String?
    /// The description the sensor recorded, when it records one.
    public let description: String?

    /// A print listed from the sensor's storage.
    public init(data: PrintData, finger: Finger?, username: String?, description: String?) {
        self.data = data
        self.finger = finger
        self.username = username
        self.description = description
    }
}
