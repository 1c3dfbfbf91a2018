/// A USB vendor and product id pair, as udev and `lsusb` show it (`04f3:0c26`).
public struct USBDeviceID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let vendor: UInt16
    public let product: UInt16

    public init(vendor: UInt16, product: UInt16) {
        self.vendor = vendor
        self.product = product
    }

    /// Parses `vvvv:pppp` in hex.
    public init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts.allSatisfy({ $0.count == 4 }),
              let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16) else { return nil }
        self.init(vendor: vendor, product: product)
    }

    /// Lower-case hex, four digits, as sysfs writes `idVendor` and `idProduct`.
    public var vendorHex: String { Self.hex(vendor) }
    public var productHex: String { Self.hex(product) }

    public var description: String { "\(vendorHex):\(productHex)" }

    public static func < (lhs: USBDeviceID, rhs: USBDeviceID) -> Bool {
        (lhs.vendor, lhs.product) < (rhs.vendor, rhs.product)
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
