/// CTAPHID's rules for one device (CTAP 2.1 §11.2): channels, messages assembled from
/// packets, one request at a time, and the errors the spec gives for each misuse. A value with
/// no I/O and no clock of its own: each report comes with the instant it arrived, and
/// ``expire(at:)`` is called when the next packet's deadline passes, so tests advance time
/// rather than wait for it.
///
/// The rules, where the spec leaves a choice:
/// - A message's packets must follow each other within ``packetTimeout``; a late packet or
///   ``expire(at:)`` ends the message with ERR_MSG_TIMEOUT on its channel.
/// - While one channel's message is being assembled or its request awaits an answer, any
///   other channel's command is ERR_CHANNEL_BUSY, except INIT: a new program can always get a
///   channel (INIT is one packet and disturbs nothing), and then waits its turn.
/// - On the busy channel itself only CANCEL and INIT are taken: both abandon the request
///   (CANCEL's is answered at once with CTAP2_ERR_KEEPALIVE_CANCEL, INIT's not at all);
///   anything else is ERR_CHANNEL_BUSY (the host must not pipeline).
/// - At most ``channelLimit`` channels are remembered; allocating one more forgets the least
///   recently used that has no message or request in progress, whose next message is
///   ERR_INVALID_CHANNEL (the host then allocates again). A program that allocates without end
///   cannot grow the device's memory, nor take away the answer another program waits for.
package struct CTAPHIDTransport: Sendable {
    /// The broadcast channel, on which INIT allocates a channel.
    package static let broadcast: UInt32 = 0xFFFF_FFFF
    /// CTAPHID protocol version in INIT's answer.
    package static let protocolVersion: UInt8 = 2
    /// Capability flags in INIT's answer: WINK (0x01) and CBOR (0x04), and NMSG (0x08) until
    /// CTAP1/U2F messages are offered.
    package var capabilities: UInt8 = 0x01 | 0x04 | 0x08
    /// The CTAP2 status a cancelled request is answered with (CTAP2_ERR_KEEPALIVE_CANCEL).
    package static let keepaliveCancelStatus: UInt8 = 0x2D
    /// The device version in INIT's answer (major, minor, build).
    package var deviceVersion: (UInt8, UInt8, UInt8) = (0, 1, 0)
    /// The longest wait between a message's packets.
    package var packetTimeout: Duration = .seconds(1)
    /// How many allocated channels are remembered.
    package var channelLimit = 64

    /// Channels allocated, least recently used first.
    private var channels: [UInt32] = []
    private var lastAllocated: UInt32 = 0
    private var assembly: Assembly?
    private var pending: CTAPHIDRequest?
    private var lastRequestID: UInt64 = 0

    /// A message being read from packets.
    private struct Assembly: Sendable {
        let channel: UInt32
        let command: UInt8
        let length: Int
        var data: [UInt8]
        var nextSequence: UInt8
        var lastPacket: ContinuousClock.Instant
    }

    /// A transport with no channels allocated.
    package init() {}

    /// The request awaiting an answer, if any.
    package var pendingRequest: CTAPHIDRequest? { pending }

    /// When ``expire(at:)`` must next be called: the deadline of the message being assembled.
    package var nextDeadline: ContinuousClock.Instant? { assembly.map { $0.lastPacket + packetTimeout } }

    /// What a report from the host, arriving at `now`, makes the device do.
    package mutating func receive(_ report: [UInt8], at now: ContinuousClock.Instant) -> [CTAPHIDEvent] {
        guard let packet = CTAPHIDPacket(report: report) else {
            return [.ignored("a report of \(report.count) bytes, not \(CTAPHIDPacket.size)")]
        }
        var events = expire(at: now)
        switch packet {
        case .continuation(let channel, let sequence, let data):
            events += continuation(channel: channel, sequence: sequence, data: data, at: now)
        case .initialization(let channel, let command, let length, let data):
            events += initialization(channel: channel, command: command, length: length, data: data, at: now)
        }
        return events
    }

    /// Ends a message whose next packet is overdue at `now` with ERR_MSG_TIMEOUT.
    package mutating func expire(at now: ContinuousClock.Instant) -> [CTAPHIDEvent] {
        guard let open = assembly, now - open.lastPacket > packetTimeout else { return [] }
        assembly = nil
        return [error(.messageTimeout, on: open.channel)]
    }

    /// The reports that answer `request`; none when the host has abandoned it since (the
    /// authenticator's answer then goes nowhere, as the spec wants after a CANCEL's own answer).
    package mutating func respond(to request: CTAPHIDRequest, command: CTAPHIDCommand, payload: [UInt8]) -> [[UInt8]] {
        guard pending == request else { return [] }
        pending = nil
        return CTAPHIDPacket.reports(channel: request.channel, command: command, payload: payload)
            ?? errorReports(.other, on: request.channel)
    }

    /// A KEEPALIVE for the pending request, sent while it waits; nil when nothing is pending.
    package func keepalive(_ status: CTAPHIDKeepaliveStatus) -> [UInt8]? {
        guard let pending else { return nil }
        return CTAPHIDPacket.reports(channel: pending.channel, command: .keepalive,
                                     payload: [status.rawValue])?.first
    }

    // MARK: - Packets

    private mutating func continuation(channel: UInt32, sequence: UInt8, data: ArraySlice<UInt8>,
                                       at now: ContinuousClock.Instant) -> [CTAPHIDEvent] {
        // A continuation of no message in progress is spurious and ignored (§11.2.5.4).
        guard var open = assembly, open.channel == channel else {
            return [.ignored("a continuation packet on channel \(hex(channel)) with no message in progress there")]
        }
        guard sequence == open.nextSequence else {
            assembly = nil
            return [error(.invalidSequence, on: channel)]
        }
        open.data += data.prefix(open.length - open.data.count)
        open.nextSequence += 1
        open.lastPacket = now
        assembly = open
        return open.data.count == open.length ? complete(open) : []
    }

    private mutating func initialization(channel: UInt32, command: UInt8, length: Int, data: ArraySlice<UInt8>,
                                         at now: ContinuousClock.Instant) -> [CTAPHIDEvent] {
        guard channel != 0 else { return [error(.invalidChannel, on: channel)] }
        if command == CTAPHIDCommand.initialize.rawValue {
            return initialize(channel: channel, length: length, data: data)
        }
        guard channel != Self.broadcast, channels.contains(channel) else { return [error(.invalidChannel, on: channel)] }
        if let open = assembly {
            guard open.channel == channel else { return [error(.channelBusy, on: channel)] }
            // A new message on a channel in the middle of one: the host lost track; drop both.
            assembly = nil
            return [error(.invalidSequence, on: channel)]
        }
        if let pending {
            guard pending.channel == channel else { return [error(.channelBusy, on: channel)] }
            guard command == CTAPHIDCommand.cancel.rawValue else { return [error(.channelBusy, on: channel)] }
            self.pending = nil
            // The cancelled request is answered at once, as the host waits for it (§11.2.9.1.5):
            // CTAP2_ERR_KEEPALIVE_CANCEL. The authenticator's own answer, later, goes nowhere.
            return [.cancelled(pending), send([Self.keepaliveCancelStatus], command: pending.command, on: channel)]
        }
        if command == CTAPHIDCommand.cancel.rawValue {
            return [.ignored("CANCEL on channel \(hex(channel)) with no request in progress")]
        }
        guard length <= CTAPHIDPacket.maximumMessage else { return [error(.invalidLength, on: channel)] }
        touch(channel)
        let open = Assembly(channel: channel, command: command, length: length,
                            data: Array(data.prefix(length)), nextSequence: 0, lastPacket: now)
        guard open.data.count == length else {
            assembly = open
            return []
        }
        return complete(open)
    }

    /// INIT: on the broadcast channel a new channel; on an allocated one a resynchronisation
    /// that abandons whatever that channel had in progress. Either way the answer echoes the nonce.
    private mutating func initialize(channel: UInt32, length: Int, data: ArraySlice<UInt8>) -> [CTAPHIDEvent] {
        guard length == 8 else { return [error(.invalidLength, on: channel)] }
        let nonce = Array(data.prefix(8))
        var events: [CTAPHIDEvent] = []
        let answered: UInt32
        if channel == Self.broadcast {
            answered = allocate()
        } else {
            guard channels.contains(channel) else { return [error(.invalidChannel, on: channel)] }
            if assembly?.channel == channel { assembly = nil }
            if let pending, pending.channel == channel {
                self.pending = nil
                events.append(.cancelled(pending))
            }
            touch(channel)
            answered = channel
        }
        let payload = nonce + CTAPHIDPacket.bigEndian(answered) + [Self.protocolVersion, deviceVersion.0, deviceVersion.1, deviceVersion.2, capabilities]
        events.append(send(payload, command: .initialize, on: channel))
        return events
    }

    /// A whole message: PING and WINK are answered here, CBOR and MSG go to the authenticator,
    /// the rest are not commands a host sends (or, LOCK, not one offered).
    private mutating func complete(_ message: Assembly) -> [CTAPHIDEvent] {
        assembly = nil
        switch CTAPHIDCommand(rawValue: message.command) {
        case .ping: return [send(message.data, command: .ping, on: message.channel)]
        case .wink: return [send([], command: .wink, on: message.channel)]
        case .cbor where message.data.isEmpty: return [error(.invalidLength, on: message.channel)]
        // NMSG: CTAP1/U2F is not offered (yet), and INIT said so.
        case .msg where capabilities & 0x08 != 0: return [error(.invalidCommand, on: message.channel)]
        case .some(let command) where command == .cbor || command == .msg:
            lastRequestID += 1
            let request = CTAPHIDRequest(id: lastRequestID, channel: message.channel, command: command, payload: message.data)
            pending = request
            return [.request(request)]
        default: return [error(.invalidCommand, on: message.channel)]
        }
    }

    // MARK: - Channels

    private mutating func allocate() -> UInt32 {
        repeat {
            lastAllocated = lastAllocated &+ 1
        } while lastAllocated == 0 || lastAllocated == Self.broadcast || channels.contains(lastAllocated)
        channels.append(lastAllocated)
        // The channel with work in progress is never the one forgotten: its host is waiting for
        // an answer (a finger, say) and would otherwise get none, nor any word that it was dropped.
        if channels.count > channelLimit,
           let index = channels.firstIndex(where: { $0 != assembly?.channel && $0 != pending?.channel }) {
            channels.remove(at: index)
        }
        return lastAllocated
    }

    private mutating func touch(_ channel: UInt32) {
        guard let index = channels.firstIndex(of: channel), index != channels.count - 1 else { return }
        channels.append(channels.remove(at: index))
    }

    // MARK: - Answers

    private func send(_ payload: [UInt8], command: CTAPHIDCommand, on channel: UInt32) -> CTAPHIDEvent {
        // Every answer built here is shorter than the longest message: it echoes at most a message.
        .send(CTAPHIDPacket.reports(channel: channel, command: command, payload: payload) ?? [])
    }

    private func error(_ error: CTAPHIDError, on channel: UInt32) -> CTAPHIDEvent {
        .send(errorReports(error, on: channel))
    }

    private func errorReports(_ error: CTAPHIDError, on channel: UInt32) -> [[UInt8]] {
        CTAPHIDPacket.reports(channel: channel, command: .error, payload: [error.rawValue]) ?? []
    }

    private func hex(_ channel: UInt32) -> String {
        let digits = String(channel, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
