import FPCore

/// The image drivers whose identification fpbridge does itself, with the threshold
/// libfprint's bozorth3 decision uses for each.
///
/// libfprint compares a scan with an image reader's prints with bozorth3 and a threshold
/// the driver sets in its class (40 when it sets none). The threshold is not in
/// libfprint's public API, so the values are facts read in each driver's source of
/// libfprint 1.94.5 (unchanged through 1.94.8). A driver not listed keeps libfprint's
/// own identify: `upeksonly` is left out because its threshold depends on the sensor
/// model (25 for one of three), and so is any driver a later libfprint adds.
enum HostMatchingDrivers {
    static let thresholds: [String: Int] = [
        "aes1610": 20, "aes1660": 20, "aes2501": 40, "aes2550": 40, "aes2660": 20,
        // aes3500 and aes4000 inherit the aes3k family's 9.
        "aes3500": 9, "aes4000": 9,
        "egis0570": 25, "elan": 24, "elanspi": 24, "etes603": 40, "nb1010": 24,
        "upektc": 30, "upektc_img": 20, "uru4000": 40, "vcom5s": 40,
        "vfs0050": 24, "vfs101": 24, "vfs301": 24, "vfs5011": 20, "vfs7552": 20,
        "virtual_image": 40,
    ]

    /// The threshold when fpbridge matches for `driver`; nil when libfprint should, because
    /// the driver is not listed or `FPBRIDGE_HOST_MATCHING=0` asks for libfprint's matching
    /// (to compare the two, as the benchmark does).
    static func threshold(forDriver driver: String) -> Int? {
        guard enabled else { return nil }
        return thresholds[driver]
    }

    /// Whether libfprint compares `driver`'s scans on the host (an image reader), so that
    /// the prints compared can be counted whoever compares them.
    static func isImageDriver(_ driver: String) -> Bool {
        thresholds[driver] != nil || driver == "upeksonly"
    }

    static let enabled: Bool = ProcessEnvironment.value("FPBRIDGE_HOST_MATCHING") != "0"
}
