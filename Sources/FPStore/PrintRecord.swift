import FPCore
import FoundationEssentials

/// One enrolled print as stored: the reader's serialised bytes plus who, which
/// finger, which reader and when.
public struct PrintRecord: Sendable, Hashable, Codable {
    /// The file format version; bumped when the layout changes.
    public static let currentFormat = 1

    /// The file format version this record was written in.
    public var format: Int
    /// The user the print belongs to.
    public var user: String
    /// The finger enrolled.
    public var finger: Finger
    /// The reader it was enrolled on; prints match only on their own reader.
    public var reader: ReaderIdentity
    /// When the finger was enrolled.
    public var enrolledAt: Date
    /// The reader's lockout epoch when the print was saved (`AttemptCounter.epoch`): the print
    /// was enrolled before every lockout of that reader with a higher epoch, whatever the clocks
    /// say. Nil for prints saved before epochs were kept.
    public var readerEpoch: Int?
    /// True when the template lives on the sensor and must be deleted there too.
    public var storedOnDevice: Bool
    /// The reader's serialised print.
    public var print: PrintData
    /// The name a security key's client gave the print (CTAP's template friendly name), at
    /// most ``maximumNameLength`` bytes; nil for none. Not part of the enrollment's state hash.
    public var name: String?
    /// The longest ``name`` kept, in bytes of UTF-8.
    public static let maximumNameLength = 64

    /// A record of a print enrolled now, in the current format.
    public init(user: String, finger: Finger, reader: ReaderIdentity, enrolledAt: Date, readerEpoch: Int? = nil,
                storedOnDevice: Bool, print: PrintData) {
        format = Self.currentFormat
        self.readerEpoch = readerEpoch
        self.user = user
        self.finger = finger
        self.reader = reader
        self.enrolledAt = enrolledAt
        self.storedOnDevice = storedOnDevice
        self.print = print
    }

    private enum CodingKeys: String, CodingKey {
        case format, user, finger, reader, enrolledAt, readerEpoch, storedOnDevice, print, name
    }

    /// Reads a print file.
    /// - Throws: `DecodingError` for a missing field or an unknown format.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        user = try container.decode(String.self, forKey: .user)
        finger = try container.decode(Finger.self, forKey: .finger)
        reader = try container.decode(ReaderIdentity.self, forKey: .reader)
        enrolledAt = try container.decode(Date.self, forKey: .enrolledAt)
        readerEpoch = try container.decodeIfPresent(Int.self, forKey: .readerEpoch)
        if let readerEpoch, !(0...AttemptCounter.maximumEpoch).contains(readerEpoch) {
            throw DecodingError.dataCorruptedError(forKey: .readerEpoch, in: container,
                                                   debugDescription: "readerEpoch is \(readerEpoch), outside 0...\(AttemptCounter.maximumEpoch)")
        }
        storedOnDevice = try container.decode(Bool.self, forKey: .storedOnDevice)
        print = PrintData(bytes: Array(try container.decode(Data.self, forKey: .print)))
        // A name too long (written by hand) is dropped, not the print: it is a label, and the
        // finger must go on matching.
        name = try container.decodeIfPresent(String.self, forKey: .name).flatMap { $0.utf8.count <= Self.maximumNameLength ? $0 : nil }
    }

    /// Writes the record as the print file's JSON, the print as base64.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(user, forKey: .user)
        try container.encode(finger, forKey: .finger)
        try container.encode(reader, forKey: .reader)
        try container.encode(enrolledAt, forKey: .enrolledAt)
        try container.encodeIfPresent(readerEpoch, forKey: .readerEpoch)
        try container.encode(storedOnDevice, forKey: .storedOnDevice)
        try container.encode(Data(print.bytes), forKey: .print)
        try container.encodeIfPresent(name, forKey: .name)
    }
}
