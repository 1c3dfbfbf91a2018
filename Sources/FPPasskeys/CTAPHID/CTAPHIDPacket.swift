/// One 64-byte HID report as CTAPHID reads it (CTAP 2.1 §11.2.4): an initialization packet
/// (channel, command with bit 7 set, a big-endian byte count, the first 57 bytes) or a
/// continuation packet (channel, sequence number 0-127, the next 59 bytes).
package enum CTAPHIDPacket: Equatable, Sendable {
    /// The first packet of a message.
    case initialization(channel: UInt32, command: UInt8, length: Int, data: ArraySlice<UInt8>)
    /// A later packet of a message.
    case continuation(channel: UInt32, sequence: UInt8, data: ArraySlice<UInt8>)

    /// The size of every report, both ways: full-speed USB HID, as the FIDO report descriptor declares.
    package static let size = 64
    /// Data bytes in an initialization packet.
    package static let initializationData = size - 7
    /// Data bytes in a continuation packet.
    package static let continuationData = size - 5
    /// The longest message: one initialization packet and 128 continuation packets.
    package static let maximumMessage = initializationData + 128 * continuationData

    /// The packet a report holds; nil when the report is not 64 bytes (nothing can be answered then).
    package init?(report: [UInt8]) {
        guard report.count == Self.size else { return nil }
        let channel = UInt32(report[0]) << 24 | UInt32(report[1]) << 16 | UInt32(report[2]) << 8 | UInt32(report[3])
        if report[4] & 0x80 != 0 {
            self = .initialization(channel: channel, command: report[4] & 0x7F,
                                   length: Int(report[5]) << 8 | Int(report[6]), data: report[7...])
        } else {
            self = .continuation(channel: channel, sequence: report[4], data: report[5...])
        }
    }

    /// The channel the packet belongs to.
    package var channel: UInt32 {
        switch self {
        case .initialization(let channel, _, _, _), .continuation(let channel, _, _): channel
        }
    }

    /// A message split into reports, zero-padded, as the device sends it; nil when it is longer
    /// than ``maximumMessage``.
    package static func reports(channel: UInt32, command: CTAPHIDCommand, payload: [UInt8]) -> [[UInt8]]? {
        guard payload.count <= maximumMessage else { return nil }
        let cid = bigEndian(channel)
        var first = cid + [command.rawValue | 0x80, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        first += payload.prefix(initializationData)
        var reports = [padded(first)]
        var rest = payload.dropFirst(initializationData)
        var sequence: UInt8 = 0
        while !rest.isEmpty {
            reports.append(padded(cid + [sequence] + rest.prefix(continuationData)))
            rest = rest.dropFirst(continuationData)
            sequence += 1
        }
        return reports
    }

    /// A channel identifier as the wire writes it.
    package static func bigEndian(_ channel: UInt32) -> [UInt8] {
        [UInt8(channel >> 24), UInt8(channel >> 16 & 0xFF), UInt8(channel >> 8 & 0xFF), UInt8(channel & 0xFF)]
    }

    private static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: size - bytes.count)
    }
}
