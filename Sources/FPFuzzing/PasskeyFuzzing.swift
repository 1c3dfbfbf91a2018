import FPPasskeys

/// The passkey authenticator's parsers under the fuzzer. Beyond "never crash", each checks
/// what must hold of any input: a decoded message re-encodes to one that decodes the same, and
/// every report the transport sends is one 64-byte packet.
enum PasskeyFuzzing {
    static func decode(_ bytes: [UInt8]) {
        guard let value = try? CBORDecoder.decode(bytes) else { return }
        let canonical = CBOREncoder.encode(value)
        let again = try? CBORDecoder.decode(canonical)
        precondition(again == value, "a decoded CBOR item did not survive its own encoding")
        precondition(CBOREncoder.encode(value) == canonical, "one value, two encodings")
    }

    /// The input as steps of 65 bytes: a control byte, then one report. The control byte's low
    /// six bits are the time since the previous step in 50 ms units (3.15 s at most, past the
    /// packet timeout); bit 6 answers the pending request first (its payload echoed); bit 7
    /// passes the deadline check on its own. A last step shorter than 65 bytes is a short report.
    static func transport(_ bytes: [UInt8]) {
        var transport = CTAPHIDTransport()
        transport.channelLimit = 4 // so that forgetting channels is reached
        var now = ContinuousClock.Instant.now
        var sent: [[UInt8]] = []
        var step = bytes[...]
        while let control = step.first {
            now = now.advanced(by: .milliseconds(50 * Int(control & 0x3F)))
            if control & 0x40 != 0, let pending = transport.pendingRequest {
                sent += transport.respond(to: pending, command: pending.command, payload: pending.payload)
            }
            if control & 0x80 != 0 {
                sent += transport.expire(at: now).flatMap(reports)
            }
            let report = Array(step.dropFirst().prefix(CTAPHIDPacket.size))
            sent += transport.receive(report, at: now).flatMap(reports)
            if let keepalive = transport.keepalive(.userPresenceNeeded) { sent.append(keepalive) }
            step = step.dropFirst(1 + CTAPHIDPacket.size)
        }
        precondition(sent.allSatisfy { $0.count == CTAPHIDPacket.size }, "a report that is not 64 bytes")
    }

    private static func reports(_ event: CTAPHIDEvent) -> [[UInt8]] {
        if case .send(let reports) = event { return reports }
        return []
    }
}
