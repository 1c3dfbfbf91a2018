@testable import FPPasskeys
import Testing

/// The bytes of `/dev/uhid`'s events against linux/uhid.h's packed layout (what the kernel
/// reads at each offset): a field one byte off would make a device the kernel refuses, or
/// reports it cuts short. The VM check (scripts/vm-passkeys-check.sh) drives the real kernel.
@Suite struct UHIDEventTests {
    private func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    @Test func createCarriesNameIdsAndDescriptorWhereTheKernelReadsThem() {
        let identity = UHIDEvent.Identity(name: "fpbridge fingerprint passkey", bus: 0x03, vendor: 0x1209, product: 0x0001)
        let event = UHIDEvent.create(identity, descriptor: FIDOReportDescriptor.bytes)
        #expect(event.count == 4376)  // sizeof(struct uhid_event): the type, then the largest request (4372)
        #expect(u32(event, 0) == 11)  // UHID_CREATE2
        #expect(Array(event[4..<(4 + 28)]) == Array("fpbridge fingerprint passkey".utf8))
        #expect(event[4 + 28] == 0)  // name[128] ends in a NUL
        // rd_size at 260, bus at 262, vendor at 264, product at 268, rd_data at 280.
        #expect(Int(event[260]) | Int(event[261]) << 8 == FIDOReportDescriptor.bytes.count)
        #expect(Int(event[262]) | Int(event[263]) << 8 == 0x03)
        #expect(u32(event, 264) == 0x1209 && u32(event, 268) == 0x0001)
        #expect(Array(event[280..<(280 + FIDOReportDescriptor.bytes.count)]) == FIDOReportDescriptor.bytes)
        // A name longer than name[128] is cut, still NUL-terminated.
        let long = UHIDEvent.create(UHIDEvent.Identity(name: String(repeating: "x", count: 300), bus: 3, vendor: 1, product: 2), descriptor: [])
        #expect(long[4 + 126] == UInt8(ascii: "x") && long[4 + 127] == 0)
    }

    @Test func inputPutsTheSizeThenTheReport() {
        let report = (0..<64).map { UInt8($0) }
        let event = UHIDEvent.input(report)
        #expect(u32(event, 0) == 12)  // UHID_INPUT2
        #expect(Int(event[4]) | Int(event[5]) << 8 == 64)
        #expect(Array(event[6..<70]) == report)
        #expect(event[70] == 0)
    }

    @Test func outputIsReadWithoutTheReportIDByteHidrawHandsOn() {
        func output(_ data: [UInt8]) -> [UInt8] {
            var event = [UInt8](repeating: 0, count: UHIDEvent.size)
            event[0] = 6  // UHID_OUTPUT
            event.replaceSubrange(4..<(4 + data.count), with: data)
            event[4 + 4096] = UInt8(data.count & 0xff)
            event[4 + 4097] = UInt8(data.count >> 8)
            return event
        }
        let report = [UInt8](repeating: 0xAB, count: 64)
        #expect(UHIDEvent.decode(output([0] + report)) == .output(report))
        #expect(UHIDEvent.decode(output(report)) == .output(report))
        // A size past data[4096] is a broken event, not a report; a short read is none either.
        var broken = output(report)
        broken[4 + 4096] = 0xFF
        broken[4 + 4097] = 0xFF
        #expect(UHIDEvent.decode(broken) == nil)
        #expect(UHIDEvent.decode(Array(output(report).prefix(100))) == nil)
        #expect(UHIDEvent.decode([4, 0, 0, 0]) == .open)
        #expect(UHIDEvent.decode([1, 2]) == nil)
    }

    @Test func featureReportRequestsAreRefusedWithEIO() throws {
        var request = [UInt8](repeating: 0, count: UHIDEvent.size)
        request[0] = 9  // UHID_GET_REPORT
        request[4] = 0x78; request[5] = 0x56
        let event = try #require(UHIDEvent.decode(request))
        #expect(event == .getReport(id: 0x5678))
        let reply = try #require(UHIDEvent.refuse(event))
        #expect(u32(reply, 0) == 10 && u32(reply, 4) == 0x5678)  // UHID_GET_REPORT_REPLY, the same id
        #expect(Int(reply[8]) | Int(reply[9]) << 8 == 5)  // err: EIO
        #expect(UHIDEvent.refuse(.open) == nil)
    }
}
