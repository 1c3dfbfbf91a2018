/// One of the ten fingers, named the way the command line spells them.
///
/// The raw values (`left-thumb` … `right-little`) are the names users type;
/// ``libfprintValue`` is libfprint's `FpFinger` number for the same finger.
public enum Finger: String, CaseIterable, Sendable, Codable, Hashable, Comparable {
    case leftThumb = "left-thumb"
    case leftIndex = "left-index"
    case leftMiddle = "left-middle"
    case leftRing = "left-ring"
    case leftLittle = "left-little"
    case rightThumb = "right-thumb"
    case rightIndex = "right-index"
    case rightMiddle = "right-middle"
    case rightRing = "right-ring"
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

    public static func < (lhs: Finger, rhs: Finger) -> Bool {
        lhs.libfprintValue < rhs.libfprintValue
    }
}

/// A finger name that is not one of the ten accepted names.
public struct FingerNameError: Error, CustomStringConvertible, Sendable {
    /// The name as the user typed it.
    public let name: String

    public var description: String {
        "unknown finger name '\(name)'; use one of: "
            + Finger.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
