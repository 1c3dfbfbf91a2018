import FPCore

/// What a reader can do, in libfprint's terms (`FpDeviceFeature`).
public struct ReaderFeatures: OptionSet, Sendable, Hashable {
    /// libfprint's feature bits.
    public let rawValue: UInt32
    /// Features from libfprint's bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Returns raw images.
    public static let capture = ReaderFeatures(rawValue: 1 << 0)
    /// Finds a finger among several prints.
    public static let identify = ReaderFeatures(rawValue: 1 << 1)
    /// Compares a finger with one print.
    public static let verify = ReaderFeatures(rawValue: 1 << 2)
    /// Keeps prints on the sensor (match-on-chip).
    public static let storage = ReaderFeatures(rawValue: 1 << 3)
    /// Lists the prints on the sensor.
    public static let storageList = ReaderFeatures(rawValue: 1 << 4)
    /// Deletes single prints from the sensor.
    public static let storageDelete = ReaderFeatures(rawValue: 1 << 5)
    /// Wipes the sensor's storage.
    public static let storageClear = ReaderFeatures(rawValue: 1 << 6)
    /// Refuses a finger already enrolled.
    public static let duplicatesCheck = ReaderFeatures(rawValue: 1 << 7)
    /// Stays powered between operations.
    public static let alwaysOn = ReaderFeatures(rawValue: 1 << 8)
    /// May update a print after a match.
    public static let updatePrint = ReaderFeatures(rawValue: 1 << 9)

    /// Each feature with the name used on the command line and in JSON.
    public static let named: [(name: String, feature: ReaderFeatures)] = [
        ("capture", .capture), ("identify", .identify), ("verify", .verify),
        ("storage", .storage), ("storage-list", .storageList),
        ("storage-delete", .storageDelete), ("storage-clear", .storageClear),
        ("duplicates-check", .duplicatesCheck), ("always-on", .alwaysOn),
        ("update-print", .updatePrint),
    ]

    /// The names of the features in this set, in libfprint's bit order.
    public var names: [String] {
        Self.named.filter { contains($0.feature) }.map(\.name)
    }

    /// Parses a feature name as printed by ``names``.
    public init?(name: String) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match.feature
    }
}
