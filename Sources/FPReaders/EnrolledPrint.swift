import FPCore

/// A print returned by enrollment.
public struct EnrolledPrint: Sendable, Hashable {
    /// The serialised print.
    public let data: PrintData
    /// True when the template lives on the sensor (match-on-chip readers):
    /// deleting the print must then delete it on the sensor too.
    public let storedOnDevice: Bool

    /// A print just enrolled; `storedOnDevice` when the sensor keeps the template.
    public init(data: PrintData, storedOnDevice: Bool) {
        self.data = data
        self.storedOnDevice = storedOnDevice
    }
}
