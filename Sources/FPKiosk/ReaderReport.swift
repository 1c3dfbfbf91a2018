import FPVocabulary

/// fpbridged's `GET /v1/reader`: whether a reader is plugged in, and its heat as numbers, so
/// that the kiosk plans its scans before libfprint would stop them.
package struct ReaderReport: Codable, Sendable, Equatable {
    /// `virtual_image/0`; nil when no reader is plugged in.
    package var identity: String?
    package var name: String?
    package var present: Bool
    /// `cold`, `warm` or `hot`, as libfprint reports it.
    package var temperature: String?
    /// libfprint's thermal ratio (0 to 1), as the service estimates it.
    package var heat: Double?
    /// Seconds of scanning before the cut-off; nil for a reader that never overheats.
    package var scanSecondsLeft: Double?
    /// Seconds of rest before a hot reader scans again (0 unless hot).
    package var usableInSeconds: Double?

    package init(identity: String?, name: String? = nil, present: Bool, temperature: String? = nil, heat: Double? = nil,
                 scanSecondsLeft: Double?, usableInSeconds: Double? = nil) {
        self.identity = identity
        self.name = name
        self.present = present
        self.temperature = temperature
        self.heat = heat
        self.scanSecondsLeft = scanSecondsLeft
        self.usableInSeconds = usableInSeconds
    }

    /// The heat as the model's value, for planning rests.
    package var readerHeat: ReaderHeat {
        ReaderHeat(ratio: heat ?? ReaderHeat.coldThreshold, hot: temperature == "hot" || (usableInSeconds ?? 0) > 0)
    }
}

/// The body of `GET /v1/reader`.
struct ReaderAnswer: Codable, Sendable {
    var ok: Bool
    var reader: ReaderReport
}
