/// The messages of the kernel's `/dev/uhid` (linux/uhid.h), as the bytes written to it and
/// read from it: each is one `struct uhid_event`, a 32-bit type then its request, packed,
/// little-endian (the kernel's own order on every machine fpbridged runs on).
///
/// Only what a CTAPHID device needs: CREATE2 to appear with the FIDO report descriptor,
/// INPUT2 for a report to the host, DESTROY to go; from the kernel OUTPUT (a report the host
/// wrote to `/dev/hidraw*`) and the lifecycle events, which carry nothing a device must answer.
package enum UHIDEvent: Equatable, Sendable {
    /// A report the host wrote (its report ID byte, 0 for a device without IDs, removed).
    case output([UInt8])
    /// The kernel's driver started or stopped the device, or the host opened or closed it.
    case start, stop, open, close
    /// GET_REPORT or SET_REPORT: a FIDO device offers no feature reports (answered with an error).
    case getReport(id: UInt32), setReport(id: UInt32)
    /// Any other type, ignored.
    case other(UInt32)

    /// `sizeof(struct uhid_event)`: the kernel reads and writes whole events.
    package static let size = 4 + 4372
    static let dataCapacity = 4096

    enum Kind: UInt32 {
        case destroy = 1, start = 2, stop = 3, open = 4, close = 5, output = 6
        case getReport = 9, getReportReply = 10, create2 = 11, input2 = 12, setReport = 13, setReportReply = 14
    }

    /// What the kernel says of a device: its name, bus and ids, and its HID report descriptor.
    package struct Identity: Sendable {
        package var name: String
        package var bus: UInt16
        package var vendor: UInt32
        package var product: UInt32

        package init(name: String, bus: UInt16, vendor: UInt32, product: UInt32) {
            self.name = name
            self.bus = bus
            self.vendor = vendor
            self.product = product
        }
    }

    /// The event read from the kernel, or nil when it is shorter than its type says.
    package static func decode(_ bytes: [UInt8]) -> UHIDEvent? {
        guard bytes.count >= 4 else { return nil }
        let type = UInt32(bytes, at: 0)
        switch Kind(rawValue: type) {
        case .output?:
            // struct uhid_output_req: data[4096], u16 size, u8 rtype.
            guard bytes.count >= 4 + dataCapacity + 3 else { return nil }
            let size = Int(UInt16(bytes[4 + dataCapacity]) | UInt16(bytes[4 + dataCapacity + 1]) << 8)
            guard size <= dataCapacity else { return nil }
            var report = Array(bytes[4..<(4 + size)])
            // hidraw hands on the report ID byte the host wrote first; this device numbers none.
            if report.count == CTAPHIDPacket.size + 1, report.first == 0 { report.removeFirst() }
            return .output(report)
        case .start?: return .start
        case .stop?: return .stop
        case .open?: return .open
        case .close?: return .close
        case .getReport?, .setReport?:
            guard bytes.count >= 8 else { return nil }
            let id = UInt32(bytes, at: 4)
            return type == Kind.getReport.rawValue ? .getReport(id: id) : .setReport(id: id)
        default: return .other(type)
        }
    }

    /// CREATE2: the device appears, with `descriptor`.
    package static func create(_ identity: Identity, descriptor: [UInt8]) -> [UInt8] {
        var event = header(.create2)
        // struct uhid_create2_req: name[128], phys[64], uniq[64], u16 rd_size, u16 bus,
        // u32 vendor, product, version, country, rd_data[4096].
        write(Array(identity.name.utf8.prefix(127)), into: &event, at: 4)
        let sizes = 4 + 128 + 64 + 64
        put(UInt32(UInt16(descriptor.count)) | UInt32(identity.bus) << 16, into: &event, at: sizes)
        put(identity.vendor, into: &event, at: sizes + 4)
        put(identity.product, into: &event, at: sizes + 8)
        write(descriptor, into: &event, at: sizes + 20)
        return event
    }

    /// INPUT2: a report to the host.
    package static func input(_ report: [UInt8]) -> [UInt8] {
        var event = header(.input2)
        event[4] = UInt8(report.count & 0xff)
        event[5] = UInt8(report.count >> 8)
        write(report, into: &event, at: 6)
        return event
    }

    /// GET_REPORT_REPLY or SET_REPORT_REPLY refusing the request `id` (EIO): no feature reports here.
    package static func refuse(_ request: UHIDEvent) -> [UInt8]? {
        let kind: Kind
        let id: UInt32
        switch request {
        case .getReport(let number): (kind, id) = (.getReportReply, number)
        case .setReport(let number): (kind, id) = (.setReportReply, number)
        default: return nil
        }
        var event = header(kind)
        put(id, into: &event, at: 4)
        put(5, into: &event, at: 8)  // EIO, as a u16 err after the u32 id
        return event
    }

    /// DESTROY: the device goes, and every open `/dev/hidraw*` of it fails from then on.
    package static let destroy: [UInt8] = header(.destroy)

    private static func header(_ kind: Kind) -> [UInt8] {
        var event = [UInt8](repeating: 0, count: size)
        put(kind.rawValue, into: &event, at: 0)
        return event
    }

    private static func put(_ value: UInt32, into event: inout [UInt8], at offset: Int) {
        for index in 0..<4 { event[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    private static func write(_ bytes: [UInt8], into event: inout [UInt8], at offset: Int) {
        event.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    }
}

/// The HID report descriptor of a FIDO security key (FIDO CTAP 2.1 §11.2.8.1): usage page
/// 0xF1D0, usage CTAPHID, one 64-byte input report and one 64-byte output report, no report
/// IDs. It is what libfido2, browsers and systemd's `fido_id` (which tags the node for the
/// seat's user) look for.
package enum FIDOReportDescriptor {
    package static let bytes: [UInt8] = [
        0x06, 0xD0, 0xF1,  // usage page FIDO
        0x09, 0x01,  // usage CTAPHID
        0xA1, 0x01,  // collection (application)
        0x09, 0x20,  //   usage: input report data
        0x15, 0x00, 0x26, 0xFF, 0x00,  //   logical 0 to 255
        0x75, 0x08, 0x95, 0x40,  //   64 fields of 8 bits
        0x81, 0x02,  //   input (data, variable, absolute)
        0x09, 0x21,  //   usage: output report data
        0x15, 0x00, 0x26, 0xFF, 0x00,
        0x75, 0x08, 0x95, 0x40,
        0x91, 0x02,  //   output (data, variable, absolute)
        0xC0,  // end collection
    ]
}

extension UInt32 {
    fileprivate init(_ bytes: [UInt8], at offset: Int) {
        self = (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
