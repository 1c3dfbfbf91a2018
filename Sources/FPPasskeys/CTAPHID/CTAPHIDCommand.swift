/// The CTAPHID commands (CTAP 2.1 §11.2.9), as the low seven bits of an initialization
/// packet's command byte (the wire sets bit 7 on every one).
package enum CTAPHIDCommand: UInt8, Sendable {
    /// Echoes its data back.
    case ping = 0x01
    /// A CTAP1/U2F message.
    case msg = 0x03
    /// Reserves the device for one channel for a while. Optional; fpbridge does not offer it.
    case lock = 0x04
    /// Allocates a channel (on the broadcast channel) or resynchronises one.
    case initialize = 0x06
    /// Asks the device to show itself to the user.
    case wink = 0x08
    /// A CTAP2 message: a command byte and its CBOR parameters.
    case cbor = 0x10
    /// Cancels the channel's request in progress.
    case cancel = 0x11
    /// Sent by the device while a request waits (every 100 ms at most).
    case keepalive = 0x3B
    /// A transport error, sent by the device.
    case error = 0x3F
}

/// The CTAPHID transport errors (CTAP 2.1 §11.2.9.1.6), the one byte of an ERROR response.
package enum CTAPHIDError: UInt8, Error, Sendable {
    /// The command is not one this device knows or offers.
    case invalidCommand = 0x01
    /// A parameter of the command is wrong.
    case invalidParameter = 0x02
    /// The message's length is wrong for its command, or over the transport's maximum.
    case invalidLength = 0x03
    /// A continuation packet out of sequence, or an initialization packet in the middle of a message.
    case invalidSequence = 0x04
    /// The rest of a message did not come in time.
    case messageTimeout = 0x05
    /// Another channel's request is in progress.
    case channelBusy = 0x06
    /// The command needs a lock this channel does not hold.
    case lockRequired = 0x0A
    /// The channel is not one this device allocated (or the reserved channel 0).
    case invalidChannel = 0x0B
    /// Anything else.
    case other = 0x7F
}

/// What a KEEPALIVE says the device is doing (CTAP 2.1 §11.2.9.2.1).
package enum CTAPHIDKeepaliveStatus: UInt8, Sendable {
    /// Working on the request.
    case processing = 1
    /// Waiting for the user: here, a finger on the reader.
    case userPresenceNeeded = 2
}
