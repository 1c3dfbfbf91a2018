@testable import FPPasskeys
import Testing

/// CTAPHID's rules, packet by packet, with time passed in rather than waited for.
@Suite struct CTAPHIDTransportTests {
    let start = ContinuousClock.now
    let nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]

    /// An initialization packet, as a host writes it.
    static func initialization(_ channel: UInt32, _ command: UInt8, length: Int, data: [UInt8] = []) -> [UInt8] {
        pad(CTAPHIDPacket.bigEndian(channel) + [command | 0x80, UInt8(length >> 8), UInt8(length & 0xFF)] + data.prefix(57))
    }

    static func continuation(_ channel: UInt32, _ sequence: UInt8, data: [UInt8] = []) -> [UInt8] {
        pad(CTAPHIDPacket.bigEndian(channel) + [sequence] + data.prefix(59))
    }

    static func pad(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: 64 - bytes.count) }

    /// The reports of the one `send` the events hold.
    static func sent(_ events: [CTAPHIDEvent]) -> [[UInt8]] {
        events.flatMap { event -> [[UInt8]] in
            if case .send(let reports) = event { return reports }
            return []
        }
    }

    /// The transport error the events answer on `channel`, if they are one.
    static func error(in events: [CTAPHIDEvent], on channel: UInt32) -> CTAPHIDError? {
        let reports = sent(events)
        guard reports.count == 1, case .initialization(channel, 0x3F, 1, let data)? = CTAPHIDPacket(report: reports[0]) else { return nil }
        return CTAPHIDError(rawValue: data.first!)
    }

    /// A channel allocated through INIT on the broadcast channel.
    func allocate(_ transport: inout CTAPHIDTransport) -> UInt32 {
        let reports = Self.sent(transport.receive(Self.initialization(CTAPHIDTransport.broadcast, 0x06, length: 8, data: nonce), at: start))
        let answer = reports[0]
        return UInt32(answer[15]) << 24 | UInt32(answer[16]) << 16 | UInt32(answer[17]) << 8 | UInt32(answer[18])
    }

    @Test func initOnTheBroadcastChannelAllocatesAChannelAndEchoesTheNonce() throws {
        var transport = CTAPHIDTransport()
        let reports = Self.sent(transport.receive(Self.initialization(CTAPHIDTransport.broadcast, 0x06, length: 8, data: nonce), at: start))
        try #require(reports.count == 1)
        let answer = reports[0]
        #expect(Array(answer[0..<7]) == [0xFF, 0xFF, 0xFF, 0xFF, 0x86, 0x00, 17])
        #expect(Array(answer[7..<15]) == nonce)
        #expect(Array(answer[15..<19]) == [0, 0, 0, 1])
        #expect(Array(answer[19..<24]) == [2, 0, 1, 0, 0x0D], "protocol 2, device 0.1.0, WINK | CBOR | NMSG")
        #expect(allocate(&transport) == 2, "each INIT a channel of its own")
        // A nonce of the wrong length is refused, on the channel it came on.
        let short = transport.receive(Self.initialization(CTAPHIDTransport.broadcast, 0x06, length: 7, data: nonce), at: start)
        #expect(Self.error(in: short, on: CTAPHIDTransport.broadcast) == .invalidLength)
    }

    @Test func aPingOfSeveralPacketsComesBackAsSent() throws {
        var transport = CTAPHIDTransport()
        let channel = allocate(&transport)
        let message = (0..<200).map { UInt8($0 & 0xFF) }
        #expect(transport.receive(Self.initialization(channel, 0x01, length: 200, data: message), at: start).isEmpty)
        #expect(transport.receive(Self.continuation(channel, 0, data: Array(message[57...])), at: start).isEmpty)
        #expect(transport.receive(Self.continuation(channel, 1, data: Array(message[116...])), at: start).isEmpty)
        let echoed = Self.sent(transport.receive(Self.continuation(channel, 2, data: Array(message[175...])), at: start))
        #expect(echoed == CTAPHIDPacket.reports(channel: channel, command: .ping, payload: message))
        #expect(echoed.count == 4)
        #expect(Self.sent(transport.receive(Self.initialization(channel, 0x08, length: 0), at: start))
                == CTAPHIDPacket.reports(channel: channel, command: .wink, payload: []))
    }

    @Test func theLongestMessageIsTakenAndOneByteMoreIsRefused() throws {
        var transport = CTAPHIDTransport()
        let channel = allocate(&transport)
        #expect(transport.receive(Self.initialization(channel, 0x01, length: 7609), at: start).isEmpty)
        for sequence in 0..<127 { #expect(transport.receive(Self.continuation(channel, UInt8(sequence)), at: start).isEmpty) }
        let echoed = Self.sent(transport.receive(Self.continuation(channel, 127), at: start))
        #expect(echoed.count == 129)
        let tooLong = transport.receive(Self.initialization(channel, 0x01, length: 7610), at: start)
        #expect(Self.error(in: tooLong, on: channel) == .invalidLength)
        #expect(CTAPHIDPacket.reports(channel: channel, command: .cbor, payload: [UInt8](repeating: 0, count: 7610)) == nil)
    }

    @Test func outOfOrderPacketsEndTheMessageAndTheChannelRecovers() {
        var transport = CTAPHIDTransport()
        let channel = allocate(&transport)
        _ = transport.receive(Self.initialization(channel, 0x01, length: 100), at: start)
        #expect(Self.error(in: transport.receive(Self.continuation(channel, 1), at: start), on: channel) == .invalidSequence)
        // The rest of the broken message is spurious now, and ignored.
        #expect(transport.receive(Self.continuation(channel, 0), at: start).first.map { if case .ignored = $0 { true } else { false } } == true)
        // An initialization packet in the middle of a message is out of sequence too.
        _ = transport.receive(Self.initialization(channel, 0x01, length: 100), at: start)
        #expect(Self.error(in: transport.receive(Self.initialization(channel, 0x01, length: 1), at: start), on: channel) == .invalidSequence)
        let ping = Self.sent(transport.receive(Self.initialization(channel, 0x01, length: 3, data: [7, 8, 9]), at: start))
        #expect(ping == CTAPHIDPacket.reports(channel: channel, command: .ping, payload: [7, 8, 9]))
    }

    @Test func aMessageWhoseNextPacketIsLateEndsInTimeout() {
        var transport = CTAPHIDTransport()
        let channel = allocate(&transport)
        _ = transport.receive(Self.initialization(channel, 0x01, length: 100), at: start)
        #expect(transport.nextDeadline == start + .seconds(1))
        #expect(transport.expire(at: start + .milliseconds(999)).isEmpty)
        #expect(Self.error(in: transport.expire(at: start + .milliseconds(1001)), on: channel) == .messageTimeout)
        #expect(transport.nextDeadline == nil)
        // A packet that arrives late is answered with the timeout, then taken for what it is.
        _ = transport.receive(Self.initialization(channel, 0x01, length: 100), at: start)
        let late = transport.receive(Self.continuation(channel, 0), at: start + .seconds(2))
        #expect(Self.error(in: Array(late.prefix(1)), on: channel) == .messageTimeout)
        #expect(late.count == 2, "the timeout, then the spurious continuation ignored")
        // A packet on time moves the deadline on.
        _ = transport.receive(Self.initialization(channel, 0x01, length: 200), at: start)
        _ = transport.receive(Self.continuation(channel, 0), at: start + .milliseconds(900))
        #expect(transport.expire(at: start + .milliseconds(1800)).isEmpty)
        #expect(transport.nextDeadline == start + .milliseconds(1900))
    }

    @Test func aCBORRequestHoldsTheDeviceUntilAnsweredOrCancelled() throws {
        var transport = CTAPHIDTransport()
        let alice = allocate(&transport), other = allocate(&transport)
        let events = transport.receive(Self.initialization(alice, 0x10, length: 1, data: [0x04]), at: start)
        guard case .request(let request)? = events.first else { Issue.record("no request: \(events)"); return }
        #expect(request.channel == alice && request.command == .cbor && request.payload == [0x04])
        #expect(transport.pendingRequest == request)
        // Another program's command waits its turn; it can still get a channel.
        #expect(Self.error(in: transport.receive(Self.initialization(other, 0x01, length: 0), at: start), on: other) == .channelBusy)
        #expect(Self.sent(transport.receive(Self.initialization(CTAPHIDTransport.broadcast, 0x06, length: 8, data: nonce), at: start)).count == 1)
        // The same channel may not pipeline a second command.
        #expect(Self.error(in: transport.receive(Self.initialization(alice, 0x01, length: 0), at: start), on: alice) == .channelBusy)
        // Another channel's CANCEL touches nothing.
        #expect(Self.error(in: transport.receive(Self.initialization(other, 0x11, length: 0), at: start), on: other) == .channelBusy)
        // While it waits, KEEPALIVE says why.
        #expect(transport.keepalive(.userPresenceNeeded).map { Array($0.prefix(8)) } == CTAPHIDPacket.bigEndian(alice) + [0xBB, 0, 1, 2])
        let answer = transport.respond(to: request, command: .cbor, payload: [0x00, 0xA0])
        #expect(answer == CTAPHIDPacket.reports(channel: alice, command: .cbor, payload: [0x00, 0xA0]))
        #expect(transport.pendingRequest == nil && transport.keepalive(.processing) == nil)
        #expect(transport.respond(to: request, command: .cbor, payload: [0x00]).isEmpty, "one answer per request")

        // CANCEL on the request's channel abandons it and answers it at once with
        // CTAP2_ERR_KEEPALIVE_CANCEL; the authenticator's answer that comes after goes nowhere.
        guard case .request(let second)? = transport.receive(Self.initialization(alice, 0x10, length: 1, data: [0x01]), at: start).first else {
            Issue.record("no second request"); return
        }
        #expect(transport.receive(Self.initialization(alice, 0x11, length: 0), at: start)
                == [.cancelled(second), .send(CTAPHIDPacket.reports(channel: alice, command: .cbor, payload: [0x2D])!)])
        #expect(transport.respond(to: second, command: .cbor, payload: [0x2D]).isEmpty)
        #expect(transport.receive(Self.initialization(alice, 0x11, length: 0), at: start).count == 1, "a CANCEL of nothing is ignored")
        #expect(Self.sent(transport.receive(Self.initialization(other, 0x01, length: 1, data: [5]), at: start))
                == CTAPHIDPacket.reports(channel: other, command: .ping, payload: [5]), "the device is free again")
    }

    @Test func initOnTheBusyChannelAbandonsItsRequestAndKeepsTheChannel() {
        var transport = CTAPHIDTransport()
        let channel = allocate(&transport)
        guard case .request(let request)? = transport.receive(Self.initialization(channel, 0x10, length: 1, data: [0x02]), at: start).first else {
            Issue.record("no request"); return
        }
        let events = transport.receive(Self.initialization(channel, 0x06, length: 8, data: nonce), at: start)
        #expect(events.first == .cancelled(request))
        let answer = Self.sent(events)
        #expect(answer.count == 1 && Array(answer[0][15..<19]) == CTAPHIDPacket.bigEndian(channel))
        #expect(transport.pendingRequest == nil)
    }

    @Test func anotherChannelsMessageInTheMiddleOfOneIsBusy() {
        var transport = CTAPHIDTransport()
        let first = allocate(&transport), second = allocate(&transport)
        _ = transport.receive(Self.initialization(first, 0x01, length: 100), at: start)
        #expect(Self.error(in: transport.receive(Self.initialization(second, 0x01, length: 1), at: start), on: second) == .channelBusy)
        #expect(transport.receive(Self.continuation(second, 0), at: start).count == 1, "another channel's continuation is spurious")
        let echoed = Self.sent(transport.receive(Self.continuation(first, 0), at: start))
        #expect(echoed.count == 2, "the first message was not disturbed")
    }

    @Test func channelsTheDeviceDidNotAllocateAreRefused() {
        var transport = CTAPHIDTransport()
        _ = allocate(&transport)
        #expect(Self.error(in: transport.receive(Self.initialization(0, 0x01, length: 0), at: start), on: 0) == .invalidChannel)
        #expect(Self.error(in: transport.receive(Self.initialization(0x1234, 0x01, length: 0), at: start), on: 0x1234) == .invalidChannel)
        #expect(Self.error(in: transport.receive(Self.initialization(0x1234, 0x06, length: 8, data: nonce), at: start), on: 0x1234) == .invalidChannel)
        #expect(Self.error(in: transport.receive(Self.initialization(CTAPHIDTransport.broadcast, 0x01, length: 0), at: start),
                           on: CTAPHIDTransport.broadcast) == .invalidChannel)
    }

    @Test func allocatingWithoutEndForgetsTheLeastRecentlyUsedChannel() {
        var transport = CTAPHIDTransport()
        transport.channelLimit = 3
        let oldest = allocate(&transport), used = allocate(&transport)
        _ = allocate(&transport)
        _ = transport.receive(Self.initialization(used, 0x01, length: 0), at: start)
        _ = allocate(&transport)
        #expect(Self.error(in: transport.receive(Self.initialization(oldest, 0x01, length: 0), at: start), on: oldest) == .invalidChannel)
        #expect(Self.error(in: transport.receive(Self.initialization(used, 0x01, length: 0), at: start), on: used) == nil)
    }

    @Test func allocatingWithoutEndNeverForgetsTheChannelWithARequestOrMessageInProgress() throws {
        var transport = CTAPHIDTransport()
        transport.channelLimit = 3
        let waiting = allocate(&transport)
        guard case .request(let request)? = transport.receive(Self.initialization(waiting, 0x10, length: 1, data: [0x02]), at: start).first else {
            Issue.record("no request"); return
        }
        // Another program allocates far past the limit while the first waits for a finger.
        let others = (0..<10).map { _ in allocate(&transport) }
        #expect(transport.pendingRequest == request)
        #expect(transport.respond(to: request, command: .cbor, payload: [0x00])
                == CTAPHIDPacket.reports(channel: waiting, command: .cbor, payload: [0x00]), "its answer still reaches it")
        // A message being assembled keeps its channel too; the rest are forgotten oldest first.
        let assembling = try #require(others.last)
        _ = transport.receive(Self.initialization(assembling, 0x01, length: 100), at: start)
        for _ in 0..<5 { _ = allocate(&transport) }
        #expect(Self.sent(transport.receive(Self.continuation(assembling, 0), at: start)).count == 2, "the message completed")
        #expect(Self.error(in: transport.receive(Self.initialization(others[0], 0x01, length: 0), at: start), on: others[0]) == .invalidChannel)
    }

    @Test func commandsNotOfferedAndReportsOfTheWrongSizeGetTheirAnswers() {
        var transport = CTAPHIDTransport()
        let channel = allocate(&transport)
        for command: UInt8 in [0x03, 0x04, 0x3B, 0x3F, 0x55] {
            #expect(Self.error(in: transport.receive(Self.initialization(channel, command, length: 0), at: start), on: channel) == .invalidCommand,
                    "command \(command)")
        }
        #expect(Self.error(in: transport.receive(Self.initialization(channel, 0x10, length: 0), at: start), on: channel) == .invalidLength,
                "CBOR needs a command byte")
        for size in [0, 63, 65] {
            #expect(transport.receive([UInt8](repeating: 0xFF, count: size), at: start).count == 1)
            #expect(Self.sent(transport.receive([UInt8](repeating: 0xFF, count: size), at: start)).isEmpty)
        }
    }
}
