import FPVocabulary

/// `GET /v1/reader`: the service's reader as a kiosk plans its waits around it: whether one is
/// plugged in, and its heat in libfprint's thermal model, with what follows from it in seconds.
package struct ReaderReport: Codable, Sendable, Hashable {
    package struct Reader: Codable, Sendable, Hashable {
        /// `driver/device-id`; nil when no reader is plugged in.
        package var identity: String?
        package var name: String?
        package var present: Bool
        package var temperature: ReaderTemperature?
        /// 0 to 1, estimated; nil when the reader never overheats.
        package var heat: Double?
        /// Seconds of scanning before the thermal cut-off; nil: no cut-off (match-on-chip, fake).
        package var scanSecondsLeft: Double?
        /// Seconds of rest before a hot reader scans again; 0 when it scans now.
        package var usableInSeconds: Double
        /// An administrator's enrollment at the kiosk in progress on this reader (identification
        /// waits for its end); nil when there is none.
        package var enrolling: Enrolling?

        package init(identity: String?, name: String?, present: Bool, temperature: ReaderTemperature?,
                     heat: ReaderHeat?) {
            self.identity = identity
            self.name = name
            self.present = present
            self.temperature = temperature
            self.heat = heat.map { Self.rounded($0.ratio, places: 4) }
            scanSecondsLeft = heat.map { Self.rounded($0.scanSecondsLeft, places: 1) }
            usableInSeconds = heat.map { Self.rounded($0.usableInSeconds, places: 1) } ?? 0
        }

        /// No reader plugged in.
        package static let absent = Reader(identity: nil, name: nil, present: false, temperature: nil, heat: nil)

        /// Fewer digits than a Double prints: these are estimates, read by people too.
        private static func rounded(_ value: Double, places: Int) -> Double {
            var scale = 1.0
            for _ in 0..<places { scale *= 10 }
            return (value * scale).rounded() / scale
        }
    }

    /// How far an enrollment at the kiosk has come: what the kiosk's page shows meanwhile. No
    /// name: anyone may read the reader's report.
    package struct Enrolling: Codable, Sendable, Hashable {
        /// Scans accepted so far.
        package var stage: Int
        /// Scans the reader needs; nil until the reader said (before the passcode is given).
        package var stages: Int?

        package init(stage: Int, stages: Int?) {
            self.stage = stage
            self.stages = stages
        }
    }

    package var reader: Reader

    package init(reader: Reader) {
        self.reader = reader
    }
}
