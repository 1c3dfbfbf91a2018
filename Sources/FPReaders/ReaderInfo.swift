import FPCore

/// What a reader says about itself.
public struct ReaderInfo: Sendable, Hashable {
    /// Driver and device id: the key prints are stored under.
    public var identity: ReaderIdentity
    /// A human-readable name, such as "Virtual image device for debugging".
    public var name: String
    /// Press or swipe: what the prompt asks the user to do.
    public var scanType: ScanType
    /// How many accepted scans an enrollment takes. Some match-on-chip
    /// readers only know this after they have been opened.
    public var enrollStages: Int
    /// What the reader can do.
    public var features: ReaderFeatures
    /// How close the reader is to libfprint's thermal cut-off.
    public var temperature: ReaderTemperature
    /// The heat behind ``temperature``, as far as it is known: nil for a reader that never
    /// overheats (libfprint's always-on readers, the fake one).
    public var heat: ReaderHeat?

    /// A description of a reader.
    public init(identity: ReaderIdentity, name: String, scanType: ScanType, enrollStages: Int,
                features: ReaderFeatures, temperature: ReaderTemperature = .cold, heat: ReaderHeat? = nil) {
        self.identity = identity
        self.name = name
        self.scanType = scanType
        self.enrollStages = enrollStages
        self.features = features
        self.temperature = temperature
        self.heat = heat
    }
}
