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

    package var reader: Reader

    package init(reader: Reader) {
        self.reader = reader
    }
}
