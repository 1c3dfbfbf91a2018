/// Which reader a print belongs to: libfprint's driver id and device id.
///
/// Prints are only ever offered to the reader that made them, so every
/// stored print is keyed by this pair.
public struct ReaderIdentity: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The driver id, such as `virtual_image`, `elan` or `fake`.
    public let driver: String
    /// The device id the driver reports (`"0"` for virtual readers).
    public let deviceID: String

    /// An identity from a driver name and the reader's device id.
    public init(driver: String, deviceID: String) {
        self.driver = driver
        self.deviceID = deviceID
    }

    /// `DRIVER/DEVICE-ID`, as messages and the CLI show it.
    public var description: String { "\(driver)/\(deviceID)" }
}
