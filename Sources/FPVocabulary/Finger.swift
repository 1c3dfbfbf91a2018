/// One of the ten fingers, named the way the command line spells them.
///
/// The raw values (`left-thumb` … `right-little`) are the names users type;
/// ``libfprintValue`` is libfprint's `FpFinger` number for the same finger.
public enum Finger: String, CaseIterable, Sendable, Codable, Hashable, Comparable {
    /// The left thumb.
    case leftThumb = "left-thumb"
    /// The left index finger.
    case leftIndex = "left-index"
    /// The left middle finger.
    case leftMiddle = "left-middle"
    /// The left ring finger.
    case leftRing = "left-ring"
    /// The left little finger.
    case leftLittle = "left-little"
    /// The right thumb.
    case rightThumb = "right-thumb"
    /// The right index finger.
    case rightIndex = "right-index"
    /// The right middle finger.
    case rightMiddle = "right-middle"
    /// The right ring finger.
    case rightRing = "right-ring"
    /// The right little finger.
    case rightLittle = "right-little"

    /// libfprint's `FpFinger` value: 1 (left thumb) to 10 (right little).
    public var libfprintValue: Int32 {
        Int32(Finger.allCases.firstIndex(of: self)! + 1)
    }

    /// The finger for a libfprint `FpFinger` value, or nil for `FP_FINGER_UNKNOWN`.
    public init?(libfprintValue: Int32) {
        let index = Int(libfprintValue) - 1
        guard Finger.allCases.indices.contains(index) else { return nil }
        self = Finger.allCases[index]
    }

    /// Parses a user-typed finger name, explaining the accepted names on failure.
    public static func parse(_ text: String) throws(FingerNameError) -> Finger {
        guard let finger = Finger(rawValue: text.lowercased()) else {
            throw FingerNameError(name: text)
        }
        return finger
    }

    /// Orders fingers as libfprint numbers them: left thumb first, right little finger last.
    public static func < (lhs: Finger, rhs: Finger) -> Bool {
        lhs.libfprintValue < rhs.libfprintValue
    }
}

/// A finger name that is not one of the ten accepted names.
public struct FingerNameError: Error, CustomStringConvertible, Sendable {
    /// The name as the user typed it.
    public let name: String

    /// The name as the CLI spells it, such as `right-index`.
    public var description: String {
        "unknown finger name '\(name)'; use one of: "
            + Finger.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
