/// How a finger is presented to the reader: pressed on an area sensor or swiped over a strip.
public enum ScanType: String, Sendable, Codable, Hashable {
    /// The finger rests on the sensor.
    case press
    /// The finger swipes across the sensor.
    case swipe

    /// The instruction a front end shows ("place" or "swipe").
    public var instruction: String {
        switch self {
        case .press: "Place your finger on the reader"
        case .swipe: "Swipe your finger across the reader"
        }
    }
}
