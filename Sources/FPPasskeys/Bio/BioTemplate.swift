import FPAuthentication

/// How bio enrollment's templates (CTAP 2.1 §6.7) name fpbridge's prints: a template is one
/// finger of the user on the reader, its id the finger's libfprint number in one byte, its
/// friendly name the one a client gave it, else the finger's own name. A security key never
/// asks which finger: the next one free, in the order a person would enroll them, is taken.
enum BioTemplate {
    /// The order free fingers are taken in: index fingers first, little fingers last.
    static let enrollmentOrder: [Finger] = [.rightIndex, .leftIndex, .rightThumb, .leftThumb, .rightMiddle, .leftMiddle,
                                            .rightRing, .leftRing, .rightLittle, .leftLittle]
    /// The longest friendly name kept, in bytes (getFingerprintSensorInfo's maxTemplateFriendlyName).
    static let maximumNameLength = PrintRecord.maximumNameLength

    /// The template id of `finger`.
    static func id(_ finger: Finger) -> [UInt8] {
        [UInt8(finger.libfprintValue)]
    }

    /// The finger a template id names; nil for an id no finger has.
    static func finger(_ id: [UInt8]) -> Finger? {
        guard id.count == 1 else { return nil }
        return Finger(libfprintValue: Int32(id[0]))
    }

    /// The first finger of ``enrollmentOrder`` not in `enrolled`; nil when all ten are.
    static func next(after enrolled: Set<Finger>) -> Finger? {
        enrollmentOrder.first { !enrolled.contains($0) }
    }

    /// The template's entry in enumerateEnrollments: its id and its friendly name.
    static func info(_ record: PrintRecord) -> CBORValue {
        .map([.int(1): .bytes(id(record.finger)), .int(2): .text(record.name ?? record.finger.rawValue)])
    }
}

/// What a sample told the user (CTAP 2.1 §6.7's lastEnrollSampleStatus); only those this
/// authenticator sends. A reader's retry says little of where the finger was, so the statuses
/// that need a direction (too high, too left, …) are never guessed.
enum BioSampleStatus: Int64, Sendable {
    /// The sample was taken.
    case good = 0x00
    /// The scan did not work, or the finger was not centred.
    case poorQuality = 0x07
    /// The swipe was too short.
    case tooShort = 0x09
    /// The finger is enrolled already, the user's or anyone's: the enrollment is over.
    case exists = 0x0B
    /// Lift the finger and touch again.
    case noUserPresenceTransition = 0x0E

    /// The status of a reader's retry.
    init(_ reason: RetryReason) {
        switch reason {
        case .general, .center: self = .poorQuality
        case .tooShort: self = .tooShort
        case .remove: self = .noUserPresenceTransition
        }
    }
}

/// The subcommands of bio enrollment (CTAP 2.1 §6.7.2).
enum BioEnrollmentSubcommand: Int64 {
    case enrollBegin = 0x01
    case enrollCaptureNextSample = 0x02
    case cancelCurrentEnrollment = 0x03
    case enumerateEnrollments = 0x04
    case setFriendlyName = 0x05
    case removeEnrollment = 0x06
    case getFingerprintSensorInfo = 0x07
}
