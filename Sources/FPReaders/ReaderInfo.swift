import FPCore

/// What a reader says about itself.
public struct ReaderInfo: Sendable, Hashable {
    /// Driver and device id: the key prints are stored under.
    public var identity: ReaderIdentity
    /// A human-readable name, such as "Virtual image device for debugging".
    public var name: String
    /// Press or swipe: what the prompt asks the user to do.
    public var scanType: ScanType
    /// How many accepted scans the reader's own enrollment takes (libfprint's count). Some
    /// match-on-chip readers only know this after they have been opened.
    public var enrollStages: Int
    /// Whether an enrollment begins with an identification of the finger among the reader's
    /// prints, one scan of its own, to refuse a finger enrolled already: on readers that can
    /// identify and whose scans fpbridge does not compare on the host (match-on-chip), as
    /// fprintd does on them. On image readers fpbridge compares the enrollment's first scan
    /// instead, with no scan of its own.
    public var identifiesBeforeEnrolling: Bool
    /// What the reader can do.
    public var features: ReaderFeatures
    /// How close the reader is to libfprint's thermal cut-off.
    public var temperature: ReaderTemperature
    /// The heat behind ``temperature``, as far as it is known: nil for a reader that never
    /// overheats (libfprint's always-on readers, the fake one).
    public var heat: ReaderHeat?

    /// A description of a reader.
    public init(identity: ReaderIdentity, name: String, scanType: ScanType, enrollStages: Int,
                features: ReaderFeatures, temperature: ReaderTemperature = .cold, heat: ReaderHeat? = nil,
                identifiesBeforeEnrolling: Bool = false) {
        self.identity = identity
        self.name = name
        self.scanType = scanType
        self.enrollStages = enrollStages
        self.identifiesBeforeEnrolling = identifiesBeforeEnrolling
        self.features = features
        self.temperature = temperature
        self.heat = heat
    }

    /// The stages an enrollment reports and the scans it takes: the reader's own, and one
    /// more where it ``identifiesBeforeEnrolling`` (fprintd's `num-enroll-stages` there too).
    public var enrollmentStages: Int {
        enrollStages + (identifiesBeforeEnrolling ? 1 : 0)
    }
}
