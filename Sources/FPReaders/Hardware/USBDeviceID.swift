/// A USB vendor and product id pair, as udev and `lsusb` show it (`04f3:0c26`).
public struct USBDeviceID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The USB vendor id.
    public let vendor: UInt16
    /// The USB product id.
    public let product: UInt16

    /// An id from its two numbers.
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
    /// The product id as four lower-case hex digits.
    public var productHex: String { Self.hex(product) }

    /// `VVVV:PPPP` in hex, as lsusb prints it.
    public var description: String { "\(vendorHex):\(productHex)" }

    /// Orders by vendor, then product.
    public static func < (lhs: USBDeviceID, rhs: USBDeviceID) -> Bool {
        (lhs.vendor, lhs.product) < (rhs.vendor, rhs.product)
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
