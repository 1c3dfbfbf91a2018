import FPCore
import Foundation

/// The metadata an enrollment writes into the new print.
///
/// A bare template (all fields nil) is what a hardware self-test uses: match-on-chip
/// drivers write this metadata onto the sensor.
public struct PrintTemplate: Sendable, Hashable {
    public var finger: Finger?
    public var username: String?
    public var enrollDate: Date?

    public init(finger: Finger? = nil, username: String? = nil, enrollDate: Date? = nil) {
        self.finger = finger
        self.username = username
        self.enrollDate = enrollDate
    }

    /// A template with no metadata at all.
    public static let bare = PrintTemplate()
}

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

/// An 8-bit greyscale image as the reader returned it.
public struct CapturedImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Row-major pixel values, `width * height` bytes.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "image data does not match its size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
