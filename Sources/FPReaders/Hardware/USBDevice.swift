/// A USB device as sysfs describes it.
public struct USBDevice: Sendable, Hashable {
    /// Vendor and product id.
    public let id: USBDeviceID
    /// The device node a driver opens, such as `/dev/bus/usb/001/094`.
    public let devnode: String
    /// The product name the device reports, when it reports one.
    public let product: String?
    /// Whether this process may open the device node for reading and writing.
    public let accessible: Bool

    /// A device as sysfs describes it.
    public init(id: USBDeviceID, devnode: String, product: String?, accessible: Bool) {
        self.id = id
        self.devnode = devnode
        self.product = product
        self.accessible = accessible
    }
}
